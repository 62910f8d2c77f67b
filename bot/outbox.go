package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/missivechess/missive/bot/i18n"
	"github.com/missivechess/missive/rules"
	"github.com/missivechess/missive/storage"
)

// The outbox.
//
// Every notification is written to the store's outbox in the transaction of the
// change that causes it (enqueue), so that it is sent exactly when the change
// happened, even if the process dies right after the commit. After the commit the
// entries are handed to the outbox's workers; New hands them whatever an earlier
// process left. Each destination (a channel or thread, a player's direct messages)
// has its own queue, delivered in order by one worker at a time; destinations run in
// parallel, at most OutboxOptions.Workers sending at once. A failed attempt is
// retried after a wait that doubles each time (with jitter, capped), or the wait a
// *RetryAfter error asks for; only an ErrPermanent answer stops the retries, and then
// the fallback runs once. An entry leaves the outbox when it (or its fallback) is
// done. Delivery is at least once: a crash between a send and the delete repeats the
// send, which carries the same Notification.ID for the adapter's message nonce.

// OutboxOptions tune the delivery of notifications.
type OutboxOptions struct {
	// Workers bounds the destinations sending at once (default 8).
	Workers int
	// MinBackoff is the wait after a first failure (default 2s); it doubles with every
	// failure up to MaxBackoff (default 10 minutes). The wait is jittered down by up
	// to half.
	MinBackoff, MaxBackoff time.Duration
	// SendTimeout bounds one attempt (default 30s).
	SendTimeout time.Duration
	// Draws bounds the notices' boards drawn at once (default half the CPUs, at
	// least one), so that notices drawn in bulk, as at a tournament's start, leave
	// CPUs to the commands players wait for.
	Draws int
	// After is the timer of the waits between attempts (default time.After); tests
	// hold the waits with a timer of their own, so that what happens meanwhile does
	// not race the clock.
	After func(time.Duration) <-chan time.Time
}

func (o *OutboxOptions) defaults() {
	if o.Workers <= 0 {
		o.Workers = 8
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 2 * time.Second
	}
	if o.MaxBackoff < o.MinBackoff {
		o.MaxBackoff = max(10*time.Minute, o.MinBackoff)
	}
	if o.SendTimeout <= 0 {
		o.SendTimeout = 30 * time.Second
	}
	if o.Draws <= 0 {
		o.Draws = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if o.After == nil {
		o.After = time.After
	}
}

// outbox delivers the service's notifications: it writes them to the data file in
// the transaction that makes them, holds the entries waiting in memory by
// destination, hands each to the Notifier with retries and fallbacks, and keeps
// the counters.
type outbox struct {
	svc    *Service // the service whose notifications these are
	opts   OutboxOptions
	sem    chan struct{} // bounds concurrent sends
	draws  chan struct{} // bounds concurrent board drawing
	mu     sync.Mutex
	queues map[string][]*pending // destination -> entries in id order
	known  map[string]bool       // ids in queues or being delivered
	// ready lists the destinations with entries and no worker, in the order they
	// came; drains counts the workers (at most drainLimit: a worker that empties its
	// destination takes the next ready one, so that a notice to each of a hundred
	// thousand players costs a queue entry each, not a goroutine each).
	ready  []string
	drains int
	stats  Metrics
}

func newOutbox(o OutboxOptions) *outbox {
	o.defaults()
	return &outbox{opts: o, sem: make(chan struct{}, o.Workers), draws: make(chan struct{}, o.Draws), queues: map[string][]*pending{}, known: map[string]bool{},
		stats: Metrics{Failed: map[string]int64{}, Errors: map[string]int64{}}}
}

// pending is an outbox entry on its way.
type pending struct {
	id, dest string
	queued   time.Time
	rec      noteRecord
}

// enqueue writes e's notifications to the outbox in tx; finish hands them to the
// workers once tx has committed.
func (o *outbox) enqueue(tx *storage.Tx, e *effects) error {
	s := o.svc
	e.queued = e.queued[:0]
	e.persisted = true
	if s.notifier == nil {
		return nil
	}
	for _, n := range e.notes {
		rec, err := o.record(n)
		if err != nil {
			return err
		}
		body, err := json.Marshal(rec)
		if err != nil {
			return fmt.Errorf("bot: encoding notification %s: %w", n.n.Key, err)
		}
		dest := destination(n.n)
		if q, ok := s.notifier.(Queues); ok {
			dest = q.Queue(n.n)
		}
		entry := &storage.OutboxEntry{Dest: dest, Body: body}
		if err := tx.PutOutbox(entry); err != nil {
			return err
		}
		e.queued = append(e.queued, &pending{id: entry.ID, dest: entry.Dest, queued: entry.Queued, rec: rec})
	}
	return nil
}

// destination names the queue of n: the place it is posted in, or the player's
// direct messages.
func destination(n Notification) string {
	if n.Channel && n.Game != nil {
		p := n.Game.Place
		switch {
		case p.Thread != "":
			return "channel:" + p.Thread
		case p.Channel != "":
			return "channel:" + p.Channel
		case n.Event != nil:
			return "event:" + string(n.Event.Kind) + ":" + n.Event.ID
		case n.Game.ID != "":
			return "game:" + n.Game.ID
		}
	}
	if n.To.ID != "" {
		return "dm:" + n.To.ID
	}
	return "local" // no place at all (local play): one queue
}

// persistLate writes notifications that no write transaction carried (those of a
// read-only operation) in a transaction of their own.
func (o *outbox) persistLate(ctx context.Context, e *effects) {
	s := o.svc
	if err := s.store.Update(context.WithoutCancel(ctx), func(tx *storage.Tx) error { return o.enqueue(tx, e) }); err != nil {
		s.log.Error("bot: notifications not queued", "count", len(e.notes), "error", err)
		e.queued = nil
	}
}

// resume hands the workers what the outbox holds (entries an earlier process left).
func (o *outbox) resume() {
	s := o.svc
	if s.notifier == nil {
		return
	}
	var entries []*storage.OutboxEntry
	if err := s.store.View(context.Background(), func(tx *storage.Tx) (err error) {
		entries, err = tx.Outbox(0)
		return err
	}); err != nil {
		s.log.Error("bot: reading the outbox failed; its notifications wait for the next start", "error", err)
		return
	}
	var ps []*pending
	for _, en := range entries {
		p := &pending{id: en.ID, dest: en.Dest, queued: en.Queued}
		if err := json.Unmarshal(en.Body, &p.rec); err != nil {
			s.log.Error("bot: an outbox entry is unreadable and stays in the outbox", "id", en.ID, "error", err)
			continue
		}
		ps = append(ps, p)
	}
	o.push(ps, false)
}

// push adds entries to their destinations' queues and starts a worker for each
// destination that has none; queued says they are new (counted as queued).
func (o *outbox) push(ps []*pending, queued bool) {
	s := o.svc
	if len(ps) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range ps {
		if o.known[p.id] {
			continue
		}
		o.known[p.id] = true
		if queued {
			o.stats.Queued++
		}
		q, busy := o.queues[p.dest]
		q = append(q, p)
		// Keep commit order (ids grow with it) when two commits' pushes crossed; the
		// head may be in flight and stays.
		for i := len(q) - 1; i > 1 && seqOf(q[i-1].id) > seqOf(q[i].id); i-- {
			q[i-1], q[i] = q[i], q[i-1]
		}
		o.queues[p.dest] = q
		switch {
		case busy:
		case o.drains < o.drainLimit():
			o.drains++
			s.bg.add()
			go o.drain(p.dest)
		default:
			o.ready = append(o.ready, p.dest)
		}
	}
}

// drawNotice draws job into a notice's reply r, holding one of the outbox's drawing
// slots (OutboxOptions.Draws).
func (o *outbox) drawNotice(r *Reply, job *Picture) {
	s := o.svc
	o.draws <- struct{}{}
	defer func() { <-o.draws }()
	s.Attach(r, job)
}

// seqOf is the sequence number of outbox id.
func seqOf(id string) uint64 {
	n, _ := strconv.ParseUint(id, 10, 64)
	return n
}

// drainLimit bounds the workers delivering destinations' queues: twice the send
// slots, so that one worker's next notice is drawn while another sends.
func (o *outbox) drainLimit() int { return 2 * o.opts.Workers }

// drain delivers dest's queue in order until it is empty, then the next ready
// destination's, until none is left or the service stops.
func (o *outbox) drain(dest string) {
	s := o.svc
	defer s.bg.done()
	for {
		o.mu.Lock()
		q := o.queues[dest]
		if len(q) == 0 {
			delete(o.queues, dest)
			if len(o.ready) == 0 || s.stopping.Err() != nil {
				o.drains--
				o.mu.Unlock()
				return
			}
			dest = o.ready[0]
			o.ready = o.ready[1:]
			o.mu.Unlock()
			continue
		}
		p := q[0]
		o.mu.Unlock()
		if !o.deliverEntry(p) { // stopping: the rest stays in the outbox for the next start
			o.mu.Lock()
			o.drains--
			o.mu.Unlock()
			return
		}
		o.mu.Lock()
		o.queues[dest] = o.queues[dest][1:]
		delete(o.known, p.id)
		o.mu.Unlock()
	}
}

// deliverEntry sends p until it is delivered or refused for good (then runs the
// fallback), and removes it from the outbox; false when the service stopped first.
func (o *outbox) deliverEntry(p *pending) bool {
	s := o.svc
	if s.stopping.Err() != nil {
		return false // stopping: nothing more is drawn or sent
	}
	s.drawing.Add(1)
	n, err := o.notification(p)
	s.drawing.Add(-1)
	if err != nil {
		s.log.Error("bot: an outbox entry cannot be rebuilt and is dropped", "id", p.id, "key", p.rec.Key, "error", err)
		o.count(func(m *Metrics) { m.Failed["unreadable"]++ })
		return o.remove(p)
	}
	err = o.retry(n)
	switch {
	case err == nil:
		o.count(func(m *Metrics) { m.Delivered++ })
	case errors.Is(err, ErrPermanent):
		o.count(func(m *Metrics) { m.Failed[reasonOf(err)]++ })
		s.log.Warn("bot: notification refused for good; trying the fallback", "id", p.id, "key", n.Key, "to", n.To.ID, "error", err)
		if fb, ok := fallback(n); ok {
			if err := o.retry(fb); err == nil {
				o.count(func(m *Metrics) { m.Fallbacks++ })
			} else if errors.Is(err, ErrPermanent) {
				o.count(func(m *Metrics) { m.Failed[reasonOf(err)]++ })
				s.log.Warn("bot: the fallback was refused too; the notification is dropped", "id", p.id, "key", n.Key, "error", err)
			} else {
				return false
			}
		}
	default:
		return false // stopping
	}
	return o.remove(p)
}

// retry calls the notifier until it succeeds, answers ErrPermanent, or the service
// stops (then it returns the last error).
func (o *outbox) retry(n Notification) error {
	s := o.svc
	for attempt := 0; ; attempt++ {
		err := o.sendOnce(n)
		if err == nil || errors.Is(err, ErrPermanent) || errors.Is(err, errStopping) {
			return err
		}
		wait := o.backoff(attempt)
		var ra *RetryAfter
		if errors.As(err, &ra) {
			o.count(func(m *Metrics) { m.RateLimited++ })
			wait = max(ra.Wait, time.Millisecond)
		}
		o.count(func(m *Metrics) {
			m.Retried++
			m.Errors[reasonOf(err)]++
		})
		s.log.Info("bot: notification not delivered yet; retrying", "id", n.ID, "key", n.Key, "attempt", attempt+1, "wait", wait, "error", err)
		select {
		case <-s.stopping.Done():
			return err
		case <-o.opts.After(wait):
		}
	}
}

// backoff is the wait after failure number attempt+1: MinBackoff doubled per
// failure, capped at MaxBackoff, less up to half at random.
func (o *outbox) backoff(attempt int) time.Duration {
	opts := o.opts
	d := opts.MinBackoff
	for i := 0; i < attempt && d < opts.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, opts.MaxBackoff)
	return d - rand.N(d/2+1)
}

// sendOnce makes one attempt, holding one of the outbox's send slots.
func (o *outbox) sendOnce(n Notification) (err error) {
	s := o.svc
	select {
	case o.sem <- struct{}{}:
	case <-s.stopping.Done():
		return errStopping // waiting for a send slot: the attempt is not made
	}
	defer func() { <-o.sem }()
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("bot: notification panicked", "key", n.Key, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("bot: notifier panicked: %v: %w", r, ErrPermanent)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), o.opts.SendTimeout)
	defer cancel()
	return s.notifier.Notify(ctx, n)
}

// errStopping is sendOnce's answer when the service stops before the attempt.
var errStopping = errors.New("bot: not sent: the service is stopping")

// remove deletes p from the outbox; false when that failed because the service
// stops (the entry is then delivered again by the next start).
func (o *outbox) remove(p *pending) bool {
	s := o.svc
	if err := s.store.Update(context.Background(), func(tx *storage.Tx) error { return tx.DeleteOutbox(p.id) }); err != nil {
		s.log.Error("bot: a delivered notification stays in the outbox", "id", p.id, "error", err)
		return s.stopping.Err() == nil
	}
	return true
}

// fallback is the other way to reach n's player after n was refused for good: a
// direct message instead of a post in the game's place, or the reverse.
func fallback(n Notification) (Notification, bool) {
	if n.To.ID == "" || n.Event != nil {
		return n, false
	}
	fb := n
	fb.ID = n.ID + "f"
	switch {
	case n.Channel && !n.Direct:
		fb.Channel, fb.Direct = false, true
	case n.Direct && !n.Channel && n.Game != nil && (n.Game.Place.Channel != "" || n.Game.Place.Thread != ""):
		fb.Channel, fb.Direct = true, false
	default:
		return n, false
	}
	return fb, true
}

// reasonOf names the kind of a delivery failure for the metrics.
func reasonOf(err error) string {
	var fr FailureReason
	switch {
	case errors.As(err, &fr):
		return fr.FailureReason()
	case errors.Is(err, ErrRateLimited):
		return "rate-limited"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, ErrPermanent):
		return "permanent"
	}
	return "error"
}

// noteRecord is the stored form of a notification in the outbox (doc.go of package
// storage describes it); its JSON names are stable.
type noteRecord struct {
	Key     string         `json:"key"`
	Kind    NoticeKind     `json:"kind"`
	To      User           `json:"to"`
	Channel bool           `json:"channel,omitempty"`
	Direct  bool           `json:"direct,omitempty"`
	Game    *placeRecord   `json:"game,omitempty"`
	Event   *eventRecord   `json:"event,omitempty"`
	Title   string         `json:"title,omitempty"`
	Text    string         `json:"text,omitempty"`
	Fields  []fieldRecord  `json:"fields,omitempty"`
	Actions []actionRecord `json:"actions,omitempty"`
	Files   []fileRecord   `json:"files,omitempty"`
	Image   *imageRecord   `json:"image,omitempty"`
	Topic   string         `json:"topic,omitempty"`
	Final   bool           `json:"final,omitempty"`
	Lang    i18n.Lang      `json:"lang,omitempty"` // Reply.Lang
}

type placeRecord struct {
	ID      string `json:"id,omitempty"`
	Guild   string `json:"guild,omitempty"`
	Channel string `json:"channel,omitempty"`
	Thread  string `json:"thread,omitempty"`
}

type eventRecord struct {
	Kind EventKind `json:"kind"`
	ID   string    `json:"id"`
	Name string    `json:"name"`
}

type fieldRecord struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

type actionRecord struct {
	Label      string      `json:"label"`
	Style      ButtonStyle `json:"style,omitempty"`
	Command    string      `json:"command"`
	Args       Args        `json:"args,omitempty"`
	Confirm    string      `json:"confirm,omitempty"`
	Input      string      `json:"input,omitempty"`
	InputLabel string      `json:"input_label,omitempty"`
	Answers    bool        `json:"answers,omitempty"`
	URL        string      `json:"url,omitempty"`
}

type fileRecord struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Data        []byte `json:"data"`
	Alt         string `json:"alt,omitempty"`
}

// imageRecord is what redraws a notification's picture as it was when the notice
// was queued: the position's text (read back by its variant), or, for a position
// whose text does not read back (a placement round's view with a hidden choice),
// the picture itself; or a table.
type imageRecord struct {
	Name     string       `json:"name"`
	Alt      string       `json:"alt,omitempty"`
	Variant  string       `json:"variant,omitempty"`
	Position string       `json:"position,omitempty"`
	Viewer   string       `json:"viewer,omitempty"` // white | black
	Theme    string       `json:"theme,omitempty"`
	LastFrom string       `json:"last_from,omitempty"` // squares of the highlighted move
	LastTo   string       `json:"last_to,omitempty"`
	TextOn   bool         `json:"text_board,omitempty"` // also show the text board
	Lang     string       `json:"lang,omitempty"`       // the text board's language ("" English)
	PNG      []byte       `json:"png,omitempty"`
	Board    string       `json:"board,omitempty"` // the text board drawn with PNG
	Table    *tableRecord `json:"table,omitempty"`
}

type tableRecord struct {
	Title   string         `json:"title,omitempty"`
	Note    string         `json:"note,omitempty"`
	Columns []columnRecord `json:"columns"`
	Rows    []rowRecord    `json:"rows"`
	Text    string         `json:"text,omitempty"`
}

type columnRecord struct {
	Header string `json:"header"`
	Right  bool   `json:"right,omitempty"`
	Max    int    `json:"max,omitempty"`
}

type rowRecord struct {
	Cells []string `json:"cells"`
	Muted bool     `json:"muted,omitempty"`
}

// record turns a queued notification into its stored form.
func (o *outbox) record(nt note) (noteRecord, error) {
	s := o.svc
	n := nt.n
	r := noteRecord{Key: n.Key, Kind: n.Kind, To: n.To, Channel: n.Channel, Direct: n.Direct,
		Title: n.Reply.Title, Text: n.Reply.Text, Topic: n.Reply.Topic, Final: n.Reply.Final, Lang: n.Reply.Lang}
	if g := n.Game; g != nil {
		r.Game = &placeRecord{ID: g.ID, Guild: g.Place.Guild, Channel: g.Place.Channel, Thread: g.Place.Thread}
	}
	if ev := n.Event; ev != nil {
		r.Event = &eventRecord{Kind: ev.Kind, ID: ev.ID, Name: ev.Name}
	}
	for _, f := range n.Reply.Fields {
		r.Fields = append(r.Fields, fieldRecord(f))
	}
	for _, a := range n.Reply.Actions {
		r.Actions = append(r.Actions, actionRecord(a))
	}
	for _, f := range n.Reply.Files {
		r.Files = append(r.Files, fileRecord(f))
	}
	if job := nt.image; job != nil {
		img := &imageRecord{Name: job.name, Alt: job.alt}
		switch {
		case job.table != nil:
			t := job.table
			tr := &tableRecord{Title: t.Title, Note: t.Note, Text: job.tableText}
			for _, c := range t.Columns {
				tr.Columns = append(tr.Columns, columnRecord(c))
			}
			for _, row := range t.Rows {
				tr.Rows = append(tr.Rows, rowRecord(row))
			}
			img.Table = tr
		case readsBack(job.pos):
			img.Variant, img.Position, img.Viewer, img.Theme, img.TextOn = job.pos.Variant().Key(), job.pos.String(),
				job.opts.Viewer.String(), job.opts.Theme, job.text
			img.Lang = string(job.opts.Lang)
			if m := job.opts.LastMove; m != nil {
				d := job.pos.Variant().Dims()
				img.LastFrom, img.LastTo = d.Name(m.From), d.Name(m.To)
			}
		default:
			// Rare (a placement round's view): drawn now, inside the transaction.
			var r Reply
			s.Attach(&r, job)
			img.Board = r.Board
			if len(r.Files) > 0 {
				img.PNG = r.Files[0].Data
			}
		}
		r.Image = img
	}
	return r, nil
}

// readsBack reports whether pos's text reads back as the same position. Only a
// simultaneous round's view can fail to (a hidden choice); every variant's texts
// otherwise round-trip (rules/variants' tests), so those are not parsed again here.
func readsBack(pos rules.Position) bool {
	if _, ok := pos.(rules.Simultaneous); !ok {
		return true
	}
	back, err := pos.Variant().ParsePosition(pos.String())
	return err == nil && back.String() == pos.String()
}

// notification rebuilds p's notification, drawing its picture.
func (o *outbox) notification(p *pending) (Notification, error) {
	s := o.svc
	r := p.rec
	n := Notification{ID: p.id, Queued: p.queued, Key: r.Key, Kind: r.Kind, To: r.To, Channel: r.Channel, Direct: r.Direct,
		Reply: Reply{Title: r.Title, Text: r.Text, Topic: r.Topic, Final: r.Final, Lang: r.Lang}}
	if g := r.Game; g != nil {
		n.Game = &GameRef{ID: g.ID, Place: Place{Guild: g.Guild, Channel: g.Channel, Thread: g.Thread}}
		if g.ID != "" && g.Thread == "" && g.Channel != "" {
			// The game may have got its thread since (the adapter opens it with the
			// first post): its notices follow it there.
			_ = s.store.View(context.Background(), func(tx *storage.Tx) error {
				if cur, err := tx.Game(g.ID); err == nil {
					n.Game.Place.Thread = cur.Thread
				}
				return nil
			})
		}
		if g.ID != "" {
			n.Reply.Game = n.Game
		}
	}
	if ev := r.Event; ev != nil {
		n.Event = &EventRef{Kind: ev.Kind, ID: ev.ID, Name: ev.Name}
	}
	for _, f := range r.Fields {
		n.Reply.Fields = append(n.Reply.Fields, Field(f))
	}
	for _, a := range r.Actions {
		n.Reply.Actions = append(n.Reply.Actions, Action(a))
	}
	for _, f := range r.Files {
		n.Reply.Files = append(n.Reply.Files, File(f))
	}
	img := r.Image
	switch {
	case img == nil:
	case img.Table != nil:
		t := img.Table
		tbl := &Table{Title: t.Title, Note: t.Note}
		for _, c := range t.Columns {
			tbl.Columns = append(tbl.Columns, Column(c))
		}
		for _, row := range t.Rows {
			tbl.Rows = append(tbl.Rows, TableRow(row))
		}
		o.drawNotice(&n.Reply, &Picture{table: tbl, tableText: t.Text, name: img.Name, alt: img.Alt})
	case img.Position != "":
		v, err := s.reg.Lookup(img.Variant)
		if err != nil {
			return n, err
		}
		pos, err := v.ParsePosition(img.Position)
		if err != nil {
			return n, err
		}
		viewer, err := rules.ParseSide(img.Viewer)
		if err != nil {
			return n, err
		}
		opts := BoardOptions{Viewer: viewer, Theme: img.Theme, Lang: i18n.Lang(img.Lang)}
		if img.LastFrom != "" {
			d := v.Dims()
			from, err1 := d.ParseSquare(img.LastFrom)
			to, err2 := d.ParseSquare(img.LastTo)
			if err := errors.Join(err1, err2); err != nil {
				return n, err
			}
			opts.LastMove = &rules.Move{From: from, To: to}
		}
		o.drawNotice(&n.Reply, &Picture{pos: pos, opts: opts, name: img.Name, alt: img.Alt, text: img.TextOn})
	default:
		n.Reply.Board = img.Board
		if len(img.PNG) > 0 {
			n.Reply.Files = append(n.Reply.Files, File{Name: img.Name, ContentType: "image/png", Data: img.PNG, Alt: img.Alt})
		}
	}
	return n, nil
}

// Metrics are the service's delivery counters since it started.
type Metrics struct {
	Queued      int64            // notifications written to the outbox
	Delivered   int64            // delivered on the first way tried
	Retried     int64            // failed attempts retried later
	Fallbacks   int64            // delivered the other way after a permanent refusal
	Failed      map[string]int64 // permanent refusals, by reason
	Errors      map[string]int64 // retried failures, by reason
	RateLimited int64            // 429 answers (from notifications, and those adapters report)
	Pending     int              // notifications waiting in memory for delivery
	Oldest      time.Time        // when the oldest waiting notification was queued (zero: none)
}

// count changes the counters under the outbox's lock.
func (o *outbox) count(f func(m *Metrics)) {
	o.mu.Lock()
	f(&o.stats)
	o.mu.Unlock()
}

// CountRateLimit records a 429 answer an adapter met outside notifications.
func (s *Service) CountRateLimit() { s.out.count(func(m *Metrics) { m.RateLimited++ }) }

// Metrics returns a copy of the delivery counters.
func (s *Service) Metrics() Metrics {
	o := s.out
	o.mu.Lock()
	defer o.mu.Unlock()
	m := o.stats
	m.Failed, m.Errors = clone(o.stats.Failed), clone(o.stats.Errors)
	for _, q := range o.queues {
		m.Pending += len(q)
		if len(q) > 0 && (m.Oldest.IsZero() || q[0].queued.Before(m.Oldest)) {
			m.Oldest = q[0].queued
		}
	}
	return m
}

func clone(m map[string]int64) map[string]int64 {
	c := make(map[string]int64, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// WriteMetrics writes the delivery counters and the external engines' checks in
// Prometheus's text format.
func (s *Service) WriteMetrics(b io.Writer) {
	m := s.Metrics()
	counter := func(name, help string, v int64) {
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s counter\n%s %d\n", name, help, name, name, v)
	}
	labelled := func(name, help string, vs map[string]int64) {
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s counter\n", name, help, name)
		for _, k := range slices.Sorted(maps.Keys(vs)) {
			fmt.Fprintf(b, "%s{reason=%q} %d\n", name, k, vs[k])
		}
	}
	counter("missive_notices_queued_total", "Notifications written to the outbox.", m.Queued)
	counter("missive_notices_delivered_total", "Notifications delivered.", m.Delivered)
	counter("missive_notices_retried_total", "Failed delivery attempts that are retried.", m.Retried)
	counter("missive_notices_fallback_total", "Notifications delivered the other way after a permanent refusal.", m.Fallbacks)
	labelled("missive_notices_failed_total", "Permanent delivery refusals, by reason.", m.Failed)
	labelled("missive_notices_errors_total", "Retried delivery failures, by reason.", m.Errors)
	counter("missive_discord_rate_limited_total", "Answers 429 (rate limited) from Discord.", m.RateLimited)
	age := 0.0
	if !m.Oldest.IsZero() {
		age = max(s.Now().Sub(m.Oldest).Seconds(), 0)
	}
	fmt.Fprintf(b, "# HELP missive_outbox_pending Notifications waiting for delivery.\n# TYPE missive_outbox_pending gauge\nmissive_outbox_pending %d\n", m.Pending)
	fmt.Fprintf(b, "# HELP missive_outbox_oldest_age_seconds Age of the oldest notification waiting for delivery.\n# TYPE missive_outbox_oldest_age_seconds gauge\nmissive_outbox_oldest_age_seconds %g\n", age)
	s.writeEngineMetrics(b) // enginecheck.go
}
