module github.com/missivechess/missive

go 1.26.8
