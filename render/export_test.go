package render

// CheckGoldenPNG lets the external tests compare pictures with golden files.
var CheckGoldenPNG = checkGoldenPNG
