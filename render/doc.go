// Package render draws the boards of Missive's four games as pictures (PNG,
// animated GIF) and as monospace text.
//
// It reads positions only through the rules contracts: Board and Renderer.Board
// take a rules.Position, DrawBoard a rules.Look and a rules.Board, so it can draw
// any board of the four games without importing them or knowing their keys. The
// variant's Look says how: Gothic, Keltic and Go-Chess are chessboards (Keltic's
// missing cells left as background, Go-Chess's blocked cells as hatched stone
// slabs), Gess a Go board with its outer ring as a margin and its rings outlined.
// Each viewer sees their own home at the bottom: White's on a chessboard, and in
// Gess, whose unturned board has Black's home at the bottom, Black's.
//
// The parts that do not change between moves (background, coordinates, piece
// sprites per size and theme, the palette) are drawn once and cached; each
// picture is composed from them, so a Renderer is fast and safe to use from many
// goroutines at once. The piece set is Missive's own vector drawing (pieces.go)
// and the coordinates use the Go Bold font from golang.org/x/image (BSD licence).
//
// Table and TablePNG draw text laid out in columns (tournament standings,
// leaderboards) in a board theme's colours, in Go Regular and Go Bold, each
// glyph rasterized once per process and shared by every Renderer.
package render
