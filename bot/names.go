package bot

// MaxNameLen is the most characters of a player's name, an opponent's included:
// Discord allows 32 for usernames, display names and nicknames alike.
const MaxNameLen = 32
