package guide

// What the external tests (package guide_test) reach of the feature's insides.

const OutageRule = outageRule

// Catalogue is the guide's message catalogue.
var Catalogue = catalogue
