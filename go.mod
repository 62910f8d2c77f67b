module github.com/missivechess/missive

go 1.26.8

require (
	github.com/bwmarrin/discordgo v0.28.1
	github.com/chromedp/chromedp v0.23.1
	github.com/fogleman/gg v1.3.0
	github.com/gorilla/websocket v1.5.3
	github.com/nicksnyder/go-i18n/v2 v2.7.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	go.etcd.io/bbolt v1.5.0
	golang.org/x/image v0.47.0
	golang.org/x/text v0.43.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/chromedp/cdproto v0.160.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
