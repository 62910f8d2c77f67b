package bot

// CmdReview is the review command's name, kept for the kernel's own tests until
// the Cmd* names leave the kernel; the review feature (package bot/review) declares
// its own, review.CmdReview, and does not use this one.
const CmdReview = "review"
