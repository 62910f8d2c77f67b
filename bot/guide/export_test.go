package guide

// What the external tests (package guide_test) reach of the feature's insides.

const OutageRule = outageRule
