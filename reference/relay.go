package reference

import (
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/nipcl/nipcl-conform/fixtures"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nbd-wtf/go-nostr"
)

// Config configures a reference relay. The zero value is a usable relay
// (profile none, in-memory database, random key, 127.0.0.1:0).
type Config struct {
	Addr     string            // listen address, default "127.0.0.1:0"
	DBPath   string            // SQLite file; "" = private in-memory DB
	Profile  string            // "none" (default; "nip29" is the same), "identity", "labels"
	Faults   []string          // fault switch names (see Faults)
	Readings map[string]string // reading ID -> value (see Readings); absent = the default
	Policies []string          // relay policy switch names (see Policies)
	// Variants are lawful switches (see Variants): variants, policy names
	// and "READING=VALUE" readings, at most one per dimension.
	Variants []string
	// AdmittedKeys are the public keys (hex) admitted under the
	// listed-keys-only policy.
	AdmittedKeys []string
	// CreatorKeys are the public keys (hex) that may create groups under
	// the listed-creators policy.
	CreatorKeys []string
	// RequireHeader, "Name: value", is a header every NIP-11 request and
	// WebSocket upgrade must carry (a deployment's proxy credentials);
	// without it the relay answers HTTP 401 (see tenancy.go).
	RequireHeader string
	// RequireCommandTag, "K=V", is a tag every group command (9000-9022)
	// must carry (a deployment's own admission tag); without it the relay
	// answers "restricted:" (see commandtag.go).
	RequireCommandTag string
	// RoutedHosts are further Host names (a port is ignored) at which the
	// host-routing variant serves communities, beside localhost, the
	// loopback addresses, the listen address and HostAdmittedKeys' hosts
	// (serve --routed-host; a run's --host-header).
	RoutedHosts []string
	// HostAdmittedKeys admits writes per community: in the community a
	// host name (the Host header without its port) resolves to, only the
	// listed public keys (hex) may write, as a multi-tenant deployment
	// whose communities admit different keys does; others are answered
	// "restricted:" (see tenancy.go). Communities not listed admit every
	// key.
	HostAdmittedKeys map[string][]string
	SecretKey        string           // relay key hex; generated when empty
	Name             string           // NIP-11 name
	Now              func() time.Time // clock; nil = time.Now
	Logf             func(format string, args ...any)

	// Optional limits (0 = default).
	MaxMessageSize int // bytes per WebSocket message, default 512 KiB
	MaxLimit       int // largest REQ limit honoured, default 5000
	DefaultLimit   int // limit of a filter without one, default 5000
	// Open subscriptions per connection (default MaxSubscriptions) and
	// filters per REQ/COUNT (default MaxFilters).
	MaxSubscriptions int
	MaxFilters       int
	// EventsPerSecond per author key; an EVENT over it is answered
	// "rate-limited:". 0 (the default) = unlimited, so the conformance
	// suites never meet it. EventBurst defaults to 2*EventsPerSecond.
	EventsPerSecond float64
	EventBurst      int

	// ContactPubKey, when set, is the NIP-11 "pubkey" (the operator's
	// contact key), different from "self" (the relay key that signs group
	// state): a client that takes pubkey for self shows its mistake.
	ContactPubKey string
	// MinPrevious > 0 refuses a group event with fewer previous
	// references (NIP-29 recommends clients include at least 3 and relays
	// enforce it). 0 (the default) = any number, including none, as the
	// conformance suites send; references present are always checked.
	MinPrevious int
}

// Defaults for the optional limits and the admission windows.
const (
	DefaultMaxMessageSize = 512 * 1024
	DefaultMaxLimit       = 5000
	DefaultDefaultLimit   = 5000
	MaxSubscriptions      = 50
	MaxFilters            = 10
	MaxSubIDLength        = 64
	CreatedAtWindow       = 900 // seconds either side of the relay clock for events
	AuthWindow            = 600 // seconds either side for kind 22242
)

// Relay is one reference relay instance.
type Relay struct {
	cfg      Config
	signer   signer      // cached relay keys for signing state events and notices
	verifier verifier    // client event ids and signatures
	probes   probeCounts // recent row counts of tag filters (drivingTag)
	profile  profile
	faults   faultSet
	readings readingSet
	policies map[string]bool
	hooks    hooks // what the variants installed (variants.go)
	// createdAtPast and createdAtFuture bound an event's created_at around
	// the relay clock (seconds; CreatedAtWindow unless a variant narrows).
	createdAtPast, createdAtFuture int64
	db                             *sql.DB
	stmts                          *statements // the write path's prepared statements
	now                            func() time.Time

	secretKey string // signs the relay's state events and notices (see stateKey)
	pubKey    string

	maxMessageSize int64
	maxLimit       int
	defaultLimit   int
	maxSubs        int
	maxFilters     int
	rate           *rateLimiter // nil = unlimited

	// wmu orders writes against reads that register live subscriptions: a
	// write transaction and its live delivery hold it exclusively; a REQ
	// holds it shared while it reads history and registers, so no committed
	// event falls between history and live.
	wmu sync.RWMutex
	// liveSeq counts committed write transactions (changed under wmu held
	// exclusively); a subscription records it when it registers, so a
	// delayed live delivery skips subscriptions that read the event as
	// history. live holds the delayed deliveries (labels-live-snapshots).
	liveSeq uint64
	live    coalescer

	connMu sync.Mutex
	conns  map[*conn]struct{}
	connWG sync.WaitGroup

	startMu  sync.Mutex
	server   *http.Server
	listener net.Listener
	url      string

	// faulty is what only fault switches keep (faults.go).
	faulty faultState

	closeOnce sync.Once
	closeErr  error
	closed    chan struct{}
}

// New validates cfg, opens the database and prepares the relay. It does not
// listen; call Start or mount Handler.
func New(cfg Config) (*Relay, error) {
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Profile == "" {
		cfg.Profile = "none"
	}
	mk, ok := profiles[cfg.Profile]
	if !ok {
		names := make([]string, 0, len(profiles))
		for n := range profiles {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("reference: unknown profile %q (valid: %s)", cfg.Profile, strings.Join(names, ", "))
	}
	faults, err := parseFaults(cfg.Faults, cfg.Profile)
	if err != nil {
		return nil, err
	}
	readings, err := parseReadings(cfg.Readings, cfg.Profile)
	if err != nil {
		return nil, err
	}
	policies, err := parsePolicies(cfg.Policies)
	if err != nil {
		return nil, err
	}
	variants, err := applyVariants(cfg.Variants, cfg.Profile, policies, readings)
	if err != nil {
		return nil, err
	}
	if cfg.RequireHeader != "" {
		if _, _, err := fixtures.ParseHeaderLine(cfg.RequireHeader); err != nil {
			return nil, fmt.Errorf("reference: RequireHeader: %w", err)
		}
	}
	if _, err := fixtures.ParseCommandTag(cfg.RequireCommandTag); cfg.RequireCommandTag != "" && err != nil {
		return nil, fmt.Errorf("reference: RequireCommandTag: %w", err)
	}
	for host, keys := range cfg.HostAdmittedKeys {
		if host == "" || strings.ContainsAny(host, ":/") {
			return nil, fmt.Errorf("reference: HostAdmittedKeys: %q is not a host name without a port", host)
		}
		for _, k := range keys {
			if !nostr.IsValid32ByteHex(k) {
				return nil, fmt.Errorf("reference: HostAdmittedKeys[%s]: %q is not a 64-character lowercase hex public key", host, k)
			}
		}
	}
	r := &Relay{
		cfg:            cfg,
		profile:        mk(faults, readings),
		faults:         faults,
		readings:       readings,
		policies:       policies,
		now:            cfg.Now,
		maxMessageSize: int64(cfg.MaxMessageSize),
		maxLimit:       cfg.MaxLimit,
		defaultLimit:   cfg.DefaultLimit,
		conns:          map[*conn]struct{}{},
		closed:         make(chan struct{}),
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.maxMessageSize <= 0 {
		r.maxMessageSize = DefaultMaxMessageSize
	}
	if r.maxLimit <= 0 {
		r.maxLimit = DefaultMaxLimit
	}
	if r.defaultLimit <= 0 {
		r.defaultLimit = DefaultDefaultLimit
	}
	if r.defaultLimit > r.maxLimit {
		r.defaultLimit = r.maxLimit
	}
	r.initLimits()
	r.createdAtPast, r.createdAtFuture = CreatedAtWindow, CreatedAtWindow
	r.hooks.absent = map[feature]bool{}
	installSwitches(r, append(variants, faultSwitches(faults)...))
	if r.defaultLimit > r.maxLimit {
		r.defaultLimit = r.maxLimit
	}

	r.secretKey = strings.ToLower(strings.TrimSpace(cfg.SecretKey))
	if r.secretKey == "" {
		r.secretKey = nostr.GeneratePrivateKey()
	}
	if !nostr.IsValid32ByteHex(r.secretKey) {
		return nil, errors.New("reference: SecretKey must be 64 hex characters")
	}
	if r.pubKey, err = nostr.GetPublicKey(r.secretKey); err != nil {
		return nil, fmt.Errorf("reference: bad SecretKey: %w", err)
	}

	if r.db, err = openDB(cfg.DBPath); err != nil {
		return nil, err
	}
	if r.stmts, err = prepareStatements(r.db); err != nil {
		r.db.Close()
		return nil, err
	}
	r.signer.start(r.closed)
	return r, nil
}

// Start listens on cfg.Addr, serves Handler and returns the ws:// URL.
func (r *Relay) Start() (string, error) {
	r.startMu.Lock()
	defer r.startMu.Unlock()
	select {
	case <-r.closed:
		return "", errors.New("reference: relay is closed")
	default:
	}
	if r.server != nil {
		return r.url, nil
	}
	ln, err := net.Listen("tcp", r.cfg.Addr)
	if err != nil {
		return "", fmt.Errorf("reference: listen %s: %w", r.cfg.Addr, err)
	}
	r.listener = ln
	r.server = &http.Server{Handler: r.Handler(), ReadHeaderTimeout: 10 * time.Second}
	r.url = "ws://" + ln.Addr().String()
	go func() {
		if err := r.server.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			r.logf("serve: %v", err)
		}
	}()
	r.logf("listening on %s (profile %s, faults %v, readings %v)", r.url, r.profile.name(), r.cfg.Faults, r.readings.nonDefault())
	return r.url, nil
}

// URL returns the ws:// URL Start listens on ("" before Start).
func (r *Relay) URL() string {
	r.startMu.Lock()
	defer r.startMu.Unlock()
	return r.url
}

// PubKey returns the relay key (hex); equals NIP-11 "self" and "pubkey".
func (r *Relay) PubKey() string { return r.pubKey }

// Close stops the listener, closes every connection and the database. It is
// idempotent.
func (r *Relay) Close() error {
	r.closeOnce.Do(func() {
		close(r.closed)
		r.startMu.Lock()
		srv := r.server
		r.startMu.Unlock()
		var errs []error
		if srv != nil {
			if err := srv.Close(); err != nil {
				errs = append(errs, err)
			}
		}
		r.connMu.Lock()
		open := make([]*conn, 0, len(r.conns))
		for c := range r.conns {
			open = append(open, c)
		}
		r.connMu.Unlock()
		for _, c := range open {
			go c.shutdown()
		}
		r.connWG.Wait()
		r.stmts.close()
		if err := r.db.Close(); err != nil {
			errs = append(errs, err)
		}
		r.closeErr = errors.Join(errs...)
	})
	return r.closeErr
}

// sqlDB runs SQL outside a transaction, through the prepared statements.
func (r *Relay) sqlDB() runner { return runner{db: r.db, stmts: r.stmts} }

func (r *Relay) logf(format string, args ...any) {
	if r.cfg.Logf != nil {
		r.cfg.Logf(format, args...)
	}
}

// broadcast delivers a committed event to every live subscription of the
// community that may read it; ch is the committed state of the event's
// channel (nil for an event of no channel). Called with wmu held
// exclusively. committed is the liveSeq of the commit that stored ev:
// subscriptions registered at or after it read ev as history and are
// skipped; liveNow (an immediate delivery) reaches every subscription.
func (r *Relay) broadcast(community string, ev *nostr.Event, ch *Channel, committed uint64) {
	r.connMu.Lock()
	targets := make([]*conn, 0, len(r.conns))
	for c := range r.conns {
		if c.community == community {
			targets = append(targets, c)
		}
	}
	r.connMu.Unlock()
	delay, late := r.liveDelay()
	if late {
		// Delivered later, outside wmu, so deliver's check needs a commit
		// number instead of liveNow. A stored event skips the
		// subscriptions registered from now on, which read it as history
		// (every caller holds wmu, so liveSeq is this commit's). An
		// unstored one (no commit follows it) reaches every subscription
		// registered before the next commit.
		switch committed {
		case liveNow:
			committed = r.liveSeq
		case liveUnstored:
			committed = r.liveSeq + 1
		}
	}
	for _, c := range targets {
		if late {
			c.deliverLate(ev, ch, committed, delay)
			continue
		}
		c.deliver(ev, ch, committed)
	}
}

// liveNow is broadcast's committed value for an immediate delivery;
// liveUnstored for one of an event that was not stored (the fault
// auth-event-broadcast's 22242), which reaches every subscription open
// when it is broadcast.
const (
	liveNow      = ^uint64(0)
	liveUnstored = ^uint64(0) - 1
)

func randomUint() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// communityOf resolves the community from the Host header (host without
// port, lowercase).
func communityOf(req *http.Request) string {
	host := req.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(strings.ToLower(host), "[]")
	if host == "" {
		host = "localhost"
	}
	return host
}
