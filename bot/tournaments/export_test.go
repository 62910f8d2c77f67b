package tournaments

// What the external tests (package tournaments_test) reach of the feature's insides.

// TextRows is the most standings rows shown as text.
const TextRows = textRows

// StandingsText draws a standings table as text (standingsText).
var StandingsText = standingsText
