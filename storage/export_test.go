package storage

import (
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/missivechess/missive/rules"
)

// OpenWithMigrations opens path with this build's migrations followed by extra ones,
// so that tests can exercise a schema upgrade.
func OpenWithMigrations(path string, reg *rules.Registry, opts *Options, extra ...func(*bolt.Tx) error) (*Store, error) {
	list := slices.Clone(migrations)
	for _, run := range extra {
		list = append(list, migration{to: list[len(list)-1].to + 1, what: "test step", run: run})
	}
	return open(path, reg, opts, list)
}

// CheckSocket is checkSocket: whether the client trusts the backup socket sock as
// made by user uid.
var CheckSocket = checkSocket

// SocketDir is socketDir, the private socket folder of user uid.
var SocketDir = socketDir
