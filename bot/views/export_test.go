package views

// What the external tests (package views_test) reach of the feature's insides.

var HintEvaluation = hintEvaluation

var HintEvaluationIn = hintEvaluationIn
