package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

// The page check reads the B+tree of a data file through ReadAt, never through
// bbolt's memory map, and checks every bound before it follows a page number or an
// offset: page numbers within the pages in use and never used twice (so no cycle),
// page types, element tables and keys and values inside their page, keys in order,
// buckets' headers and inline pages. bbolt itself trusts the file: on a damaged page
// its cursors can loop without end (an inline bucket whose page is not a leaf
// descends for ever, until the memory runs out) and its consistency check reads past
// the memory map in a goroutine of its own, where a fault kills the process. Once
// this check has passed, bbolt reads nothing out of bounds.

// bbolt's page layout (file format 2): a 16-byte header (page id, flags, element
// count, overflow pages), then the elements, 16 bytes each, whose keys and values
// lie after them at offsets relative to the element.
const (
	pageHeaderSize  = 16
	pageElementSize = 16
	branchPageFlag  = 0x01
	leafPageFlag    = 0x02
	freelistFlag    = 0x10
	bucketLeafFlag  = 0x01
	bucketHeaderLen = 16 // root page id and sequence
	maxTreeDepth    = 64
)

// pageChecker walks the pages of one data file.
type pageChecker struct {
	r        io.ReaderAt
	pageSize int
	hwm      uint64   // pages in use: valid page ids are below it
	seen     []uint64 // bit set of the pages reached
	leaves   bool     // read every leaf page (the full check), not only branch pages
	pages    int      // pages read
}

// pageDamage is a problem the page check found.
type pageDamage struct {
	page uint64
	what string
}

func (d *pageDamage) Error() string { return fmt.Sprintf("page %d %s", d.page, d.what) }

func (c *pageChecker) damaged(page uint64, format string, args ...any) error {
	return &pageDamage{page: page, what: fmt.Sprintf(format, args...)}
}

// newPageChecker prepares the check of the file read by r whose newest meta page is m.
func newPageChecker(r io.ReaderAt, m metaPage, leaves bool) *pageChecker {
	return &pageChecker{r: r, pageSize: int(m.pageSize), hwm: uint64(m.hwm) / uint64(m.pageSize),
		seen: make([]uint64, (uint64(m.hwm)/uint64(m.pageSize))/64+1), leaves: leaves}
}

// read returns page id with its overflow pages, after checking its header.
func (c *pageChecker) read(id uint64, want uint16) ([]byte, error) {
	if id < 2 || id >= c.hwm {
		return nil, c.damaged(id, "is referred to, but the file's pages in use are 2 to %d", c.hwm-1)
	}
	buf := make([]byte, c.pageSize)
	if _, err := c.r.ReadAt(buf, int64(id)*int64(c.pageSize)); err != nil {
		return nil, c.damaged(id, "cannot be read (%v)", err)
	}
	c.pages++
	ne := binary.NativeEndian
	if got := ne.Uint64(buf); got != id {
		return nil, c.damaged(id, "says it is page %d", got)
	}
	if flags := ne.Uint16(buf[8:]); flags&want == 0 {
		return nil, c.damaged(id, "has the type %#x where a page of type %#x belongs", flags, want)
	}
	overflow := uint64(ne.Uint32(buf[12:]))
	if id+overflow >= c.hwm {
		return nil, c.damaged(id, "claims %d more pages, past the end of the pages in use (%d)", overflow, c.hwm)
	}
	for p := id; p <= id+overflow; p++ {
		if c.seen[p/64]&(1<<(p%64)) != 0 {
			return nil, c.damaged(p, "is used twice in the tree")
		}
		c.seen[p/64] |= 1 << (p % 64)
	}
	if overflow > 0 {
		buf = make([]byte, (overflow+1)*uint64(c.pageSize))
		if _, err := c.r.ReadAt(buf, int64(id)*int64(c.pageSize)); err != nil {
			return nil, c.damaged(id, "cannot be read with its %d overflow pages (%v)", overflow, err)
		}
	}
	return buf, nil
}

// mark records page id as reached without reading it (a leaf of the quick check).
func (c *pageChecker) mark(id uint64) error {
	if id < 2 || id >= c.hwm {
		return c.damaged(id, "is referred to, but the file's pages in use are 2 to %d", c.hwm-1)
	}
	if c.seen[id/64]&(1<<(id%64)) != 0 {
		return c.damaged(id, "is used twice in the tree")
	}
	c.seen[id/64] |= 1 << (id % 64)
	return nil
}

// element returns the key and value of element i of page p (value nil for a branch
// element, whose page number is returned instead), checking they lie inside p.
func element(p []byte, i int, branch bool) (flags uint32, key, value []byte, child uint64, ok bool) {
	ne := binary.NativeEndian
	e := pageHeaderSize + i*pageElementSize
	if branch {
		pos, ksize := uint64(ne.Uint32(p[e:])), uint64(ne.Uint32(p[e+4:]))
		start := uint64(e) + pos
		if start+ksize > uint64(len(p)) {
			return 0, nil, nil, 0, false
		}
		return 0, p[start : start+ksize], nil, ne.Uint64(p[e+8:]), true
	}
	flags = ne.Uint32(p[e:])
	pos, ksize, vsize := uint64(ne.Uint32(p[e+4:])), uint64(ne.Uint32(p[e+8:])), uint64(ne.Uint32(p[e+12:]))
	start := uint64(e) + pos
	if start+ksize+vsize > uint64(len(p)) {
		return 0, nil, nil, 0, false
	}
	return flags, p[start : start+ksize], p[start+ksize : start+ksize+vsize], 0, true
}

// tree checks the B+tree whose root is page id: in the quick check, leaf pages of
// buckets other than the root bucket are only counted, not read.
func (c *pageChecker) tree(id uint64, readLeaves bool) error {
	return c.node(id, 0, readLeaves)
}

func (c *pageChecker) node(id uint64, depth int, readLeaves bool) error {
	if depth > maxTreeDepth {
		return c.damaged(id, "lies %d levels deep in the tree", depth)
	}
	p, err := c.read(id, branchPageFlag|leafPageFlag)
	if err != nil {
		return err
	}
	return c.elements(id, p, depth, readLeaves)
}

// elements checks the elements of page (or inline page) p, numbered id, and what
// they lead to.
func (c *pageChecker) elements(id uint64, p []byte, depth int, readLeaves bool) error {
	ne := binary.NativeEndian
	flags, count := ne.Uint16(p[8:]), int(ne.Uint16(p[10:]))
	branch := flags&branchPageFlag != 0
	if pageHeaderSize+count*pageElementSize > len(p) {
		return c.damaged(id, "claims %d elements, more than it can hold", count)
	}
	if branch && count == 0 {
		return c.damaged(id, "is a branch page with no elements")
	}
	var prev []byte
	var children []uint64
	for i := range count {
		eflags, key, value, child, ok := element(p, i, branch)
		if !ok {
			return c.damaged(id, "has element %d reaching past the end of the page", i)
		}
		if i > 0 && bytes.Compare(prev, key) >= 0 {
			return c.damaged(id, "has its keys out of order at element %d", i)
		}
		prev = key
		switch {
		case branch:
			children = append(children, child)
		case eflags&bucketLeafFlag != 0:
			if err := c.bucket(id, key, value, depth); err != nil {
				return err
			}
		}
	}
	if !branch {
		return nil
	}
	leafLevel := false
	for i, child := range children {
		// bbolt's tree is balanced: when the first child of a branch page is a leaf,
		// so are the others, and the quick check only marks them.
		if i == 1 {
			leafLevel = !readLeaves && c.isLeafLevel(children[0])
		}
		if leafLevel {
			if err := c.mark(child); err != nil {
				return err
			}
			continue
		}
		if err := c.node(child, depth+1, readLeaves); err != nil {
			return err
		}
	}
	return nil
}

// isLeafLevel reports whether page id (already read and checked) is a leaf page.
func (c *pageChecker) isLeafLevel(id uint64) bool {
	var h [pageHeaderSize]byte
	if _, err := c.r.ReadAt(h[:], int64(id)*int64(c.pageSize)); err != nil {
		return false
	}
	return binary.NativeEndian.Uint16(h[8:])&leafPageFlag != 0
}

// bucket checks the bucket stored as the value of key on page id: its header, and
// its inline page or its own tree. The buckets of buckets are read whole; the
// buckets' own records only in the full check.
func (c *pageChecker) bucket(id uint64, key, value []byte, depth int) error {
	if len(value) < bucketHeaderLen {
		return c.damaged(id, "holds the bucket %q with a header of %d bytes", key, len(value))
	}
	root := binary.NativeEndian.Uint64(value)
	if root != 0 {
		return c.node(root, depth+1, c.leaves)
	}
	inline := value[bucketHeaderLen:]
	if len(inline) < pageHeaderSize || binary.NativeEndian.Uint16(inline[8:])&leafPageFlag == 0 {
		return c.damaged(id, "holds the bucket %q whose inline page is not a leaf page", key)
	}
	if depth > maxTreeDepth {
		return c.damaged(id, "nests buckets %d levels deep", depth)
	}
	return c.elements(id, inline, depth+1, c.leaves)
}

// freelist checks the page holding the list of free pages.
func (c *pageChecker) freelist(id uint64) error {
	p, err := c.read(id, freelistFlag)
	if err != nil {
		return err
	}
	ne := binary.NativeEndian
	count, at := uint64(ne.Uint16(p[10:])), pageHeaderSize
	if count == 0xFFFF { // the real count is the first element
		count, at = ne.Uint64(p[pageHeaderSize:]), pageHeaderSize+8
	}
	if count > uint64(len(p)-at)/8 {
		return c.damaged(id, "lists %d free pages, more than it can hold", count)
	}
	for i := range count {
		if free := ne.Uint64(p[at+int(i)*8:]); free < 2 || free >= c.hwm {
			return c.damaged(id, "lists the free page %d, outside the pages in use", free)
		}
	}
	return nil
}

// checkPages checks the page tree of the data file at path as of its newest meta
// page: the root bucket, the buckets' headers and all branch pages, and with full
// every leaf page too. The file must not change meanwhile (the caller holds a lock
// that keeps writers out).
func checkPages(path string, full bool) (pages int, err error) {
	m, ok := readMetas(path)
	if !ok || (!m[0].ok && !m[1].ok) {
		return 0, nil // bbolt's own open names a file without a valid meta page
	}
	newest := m[0]
	if !m[0].ok || (m[1].ok && m[1].txid > m[0].txid) {
		newest = m[1]
	}
	if newest.pageSize < 1024 || newest.pageSize > 1<<16 || newest.hwm < 2*int64(newest.pageSize) {
		return 0, fmt.Errorf("its meta page gives a page size of %d and %d bytes in use", newest.pageSize, newest.hwm)
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	c := newPageChecker(f, newest, full)
	if newest.freelist != noFreelist {
		if err := c.freelist(newest.freelist); err != nil {
			return c.pages, err
		}
	}
	err = c.tree(newest.root, true)
	return c.pages, err
}

// noFreelist is the freelist page number of a file that does not store its freelist.
const noFreelist = 0xffffffffffffffff
