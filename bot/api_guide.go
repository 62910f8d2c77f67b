package bot

// CmdHelp is /help (guide.CmdHelp), kept for the tests still in bot.
const CmdHelp = "help"
