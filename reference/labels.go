package reference

import (
	"errors"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// labelsProfile implements nip-cl-labels.md ("Channel Labels"):
//
//   - 9007 carries initial labels as ["label", v] tags; 9002 with
//     ["add-label", v] / ["remove-label", v] is a label-only mutation that the
//     profile applies itself (command hook), inside the command's single
//     write transaction, against freshly read channel state;
//   - 39000 snapshots carry ["L","nip-cl"] and sorted ["l", v, "nip-cl"];
//   - covered commands answer with the fixed nip-cl-* OK prefixes; an exact
//     retry of a committed covered command passes retry admission and answers
//     OK true "duplicate: nip-cl-committed" without reapplying anything.
//
// Application evidence is the stored command itself: covered commands are
// stored only by the transaction that applies them (never by generic
// storage), and nothing deletes them.
type labelsProfile struct {
	noneProfile
	faults   faultSet
	readings readingSet

	// stale is the read-outside-the-lock faults' reads (faults_labels.go).
	stale staleReads
}

func newLabelsProfile(f faultSet, rs readingSet) profile {
	return &labelsProfile{faults: f, readings: rs}
}

var (
	_ profile      = (*labelsProfile)(nil)
	_ commandHooks = (*labelsProfile)(nil)
)

func (*labelsProfile) name() string         { return clause.ProfileLabels }
func (*labelsProfile) extensions() []string { return []string{"nip-cl"} }

// Limits of nip-cl-labels.md "Label values and limits".
const (
	maxStoredLabels = 32
	maxLabelBytes   = 64
	maxRawLabelTags = 64
	labelNamespace  = "nip-cl"
)

var labelPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._:/-]*$`)

// --- tag classification -----------------------------------------------------

// labelCommandTags are the tag names whose presence makes a 9002 a covered
// label command (including misplaced ones that must be rejected).
var labelCommandTags = []string{"add-label", "remove-label", "label", "l", "L", "t"}

// metadataTags are the 9002 tags that change channel metadata; a label
// mutation must not carry any of them.
var metadataTags = []string{"name", "about", "picture", "banner", "visibility", "archived", "topic", "purpose", "ttl",
	"private", "public", "open", "closed", "hidden", "visible", "restricted", "unrestricted", "channel_type"}

// extendedMetadataTags are the fields the labels draft names besides
// NIP-29's (under the reading labels-mixed-extended-fields=ignored they
// ride along, ignored).
var extendedMetadataTags = []string{"topic", "purpose", "ttl"}

func isLabelMutation(ev *nostr.Event) bool {
	return ev.Kind == kindEditMetadata && (hasTag(ev, "add-label") || hasTag(ev, "remove-label"))
}

// covered reports whether ev is a command whose answers follow the draft's
// fixed OK outcomes: every 9007, and every 9002 carrying a label-related tag.
func covered(ev *nostr.Event) bool {
	if ev.Kind == kindCreateGroup {
		return true
	}
	if ev.Kind != kindEditMetadata {
		return false
	}
	for _, n := range labelCommandTags {
		if hasTag(ev, n) {
			return true
		}
	}
	return false
}

// checkLabel validates one label value (rejects, never rewrites).
func (p *labelsProfile) checkLabel(v string) (string, error) {
	// Fault labels-values-rewritten: normalize instead of rejecting.
	if p.faults.on(faultLabelsValuesRewritten) {
		v = strings.ToLower(strings.TrimSpace(v))
	}
	checked := v
	// Fault labels-newline-before-end: the end anchor also matches before
	// a final newline (the value is stored with it).
	if p.faults.on(faultLabelsNewlineBeforeEnd) {
		checked = strings.TrimSuffix(v, "\n")
	}
	if checked == "" || len(checked) > maxLabelBytes || !labelPattern.MatchString(checked) {
		return "", reject("invalid", "label %q must match ^[a-z0-9][a-z0-9._:/-]*$ and be at most %d bytes",
			text.Clip(v, 80), maxLabelBytes)
	}
	// Fault labels-namespace-prefix-reserved.
	if strings.HasPrefix(v, labelNamespace) && p.faults.on(faultLabelsPrefixReserved) {
		return "", reject("restricted", "label values starting with %q are reserved", labelNamespace)
	}
	return v, nil
}

// rawLimitExceeded applies the raw tag limit (before deduplication).
func (p *labelsProfile) rawLimitExceeded(raw, distinct int) bool {
	// Fault labels-raw-limit-after-dedup: count distinct values instead.
	if p.faults.on(faultLabelsRawLimitDedup) {
		return distinct > maxRawLabelTags
	}
	return raw > maxRawLabelTags
}

func (p *labelsProfile) storedLimitExceeded(n int) bool {
	// Fault labels-stored-limit-off.
	return n > maxStoredLabels && !p.faults.on(faultLabelsStoredLimitOff)
}

// misplaced rejects tags that do not belong on this command kind.
func (p *labelsProfile) misplaced(ev *nostr.Event, names ...string) error {
	// Fault labels-misplaced-ignored.
	if p.faults.on(faultLabelsMisplacedIgnored) {
		return nil
	}
	for _, tag := range ev.Tags {
		if !slices.Contains(names, tag[0]) {
			continue
		}
		// Fault labels-foreign-namespace-ignored: l and L tags of another
		// namespace (or none) pass as foreign NIP-32 labels.
		if !nipCLMarked(tag) && p.faults.on(faultLabelsForeignNSIgnored) {
			continue
		}
		return reject("invalid", "%q tags do not belong on kind %d", text.Clip(tag[0], 16), ev.Kind)
	}
	return nil
}

func labelTypeAllowed(typ string) bool { return typ == "stream" || typ == "forum" }

// --- 9007 -------------------------------------------------------------------

// onCreate validates the label tags of a 9007 and records the label set.
func (p *labelsProfile) onCreate(ev *nostr.Event, ch *Channel) error {
	if err := p.misplaced(ev, "add-label", "remove-label", "l", "L", "t"); err != nil {
		return err
	}
	// Fault labels-nonatomic-create: labels are validated after the channel
	// was committed (see create).
	if p.faults.on(faultLabelsNonAtomicCreate) {
		return nil
	}
	labels, err := p.createLabels(ev)
	if err != nil {
		return err
	}
	if len(labels) > 0 && !labelTypeAllowed(ch.Type) && !p.faults.on(faultLabelsDMAccepted) {
		// Reading labels-scope-create-prefix: a malformed command for its
		// type (invalid:) or labels not permitted there (restricted:).
		prefix := "invalid"
		if p.readings.is(clause.ReadingLabelsCreatePrefix, "restricted") {
			prefix = "restricted"
		}
		return reject(prefix, "labels apply to stream and forum channels only, not %q", ch.Type)
	}
	ch.Labels = labels
	return nil
}

// createLabels parses the label tags of a 9007 into the applied set.
func (p *labelsProfile) createLabels(ev *nostr.Event) ([]string, error) {
	var raw []string
	for _, tag := range ev.Tags {
		if tag[0] != "label" {
			continue
		}
		if len(tag) != 2 {
			return nil, reject("invalid", `a label tag must be exactly ["label", <value>]`)
		}
		v, err := p.checkLabel(tag[1])
		if err != nil {
			return nil, err
		}
		raw = append(raw, v)
	}
	// Fault labels-create-value-copies-capped.
	if p.faults.on(faultLabelsCreateCopiesCapped) {
		copies := map[string]int{}
		for _, v := range raw {
			if copies[v]++; copies[v] > maxStoredLabels {
				return nil, reject("invalid", "label %q repeated more than %d times", text.Clip(v, 32), maxStoredLabels)
			}
		}
	}
	set := dedupSorted(raw)
	// Fault labels-create-no-dedup: keep every raw value.
	if p.faults.on(faultLabelsCreateNoDedup) {
		set = slices.Clone(raw)
		sort.Strings(set)
	}
	if p.rawLimitExceeded(len(raw), len(set)) {
		return nil, reject("invalid", "at most %d label tags per command, got %d", maxRawLabelTags, len(raw))
	}
	if p.storedLimitExceeded(len(dedupSorted(set))) {
		return nil, reject("invalid", "at most %d labels per channel, got %d", maxStoredLabels, len(dedupSorted(set)))
	}
	return set, nil
}

func dedupSorted(vs []string) []string {
	out := slices.Clone(vs)
	sort.Strings(out)
	return slices.Compact(out)
}

// create applies an h-tagged 9007: the core creates the channel (onCreate
// validated the labels) in this transaction; faults post-process.
func (p *labelsProfile) create(t *txn, ev *nostr.Event) error {
	// The draft's UUID rule covers every h-tagged creation (fault
	// labels-unlabeled-h-lenient: only labeled ones).
	if _, err := channelUUID(ev); err != nil && !(!hasTag(ev, "label") && p.faults.on(faultLabelsUnlabeledHLenient)) {
		return err
	}
	if id, err := channelID(ev); err == nil && p.faults.on(faultLabelsConflictDiscloses) {
		// Fault labels-conflict-discloses: name the existing channel.
		if prev, err := t.channel(id); err == nil && prev != nil {
			return reject("duplicate", "channel %s exists: name %q labels %s", id, prev.Name, strings.Join(prev.Labels, ","))
		}
	}
	if err := p.uuidTakenElsewhere(t, ev); err != nil {
		return err
	}
	if err := t.r.dispatch(t, ev); err != nil {
		// Fault labels-refused-create-stored: a conflicting create is
		// stored although it was refused.
		var rj *rejection
		if errors.As(err, &rj) && rj.prefix == "duplicate" && p.faults.on(faultLabelsRefusedCreateKept) {
			id, _ := channelID(ev)
			if ierr := t.insert(ev, id); ierr != nil {
				return ierr
			}
			if cerr := commitPartial(t); cerr != nil {
				return cerr
			}
		}
		return err
	}
	id, _ := channelID(ev)
	ch, err := t.channel(id)
	if err != nil || ch == nil {
		return err
	}
	changed := false
	// Fault labels-nonatomic-create: validate labels only now; a rejection
	// keeps the channel, membership and snapshot committed above.
	if p.faults.on(faultLabelsNonAtomicCreate) {
		labels, err := p.createLabels(ev)
		if err == nil && len(labels) > 0 && !labelTypeAllowed(ch.Type) {
			err = reject("invalid", "labels apply to stream and forum channels only")
		}
		if err != nil {
			if cerr := commitPartial(t); cerr != nil {
				return cerr
			}
			return err
		}
		ch.Labels, changed = labels, len(labels) > 0
	}
	// Fault labels-community-leak: inherit labels stored for the same UUID
	// in any other community.
	if p.faults.on(faultLabelsCommunityLeak) {
		rows, err := t.tx.Query(`SELECT community FROM channels WHERE uuid = ? AND community <> ?`, id, t.community)
		if err != nil {
			return err
		}
		var others []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return err
			}
			others = append(others, c)
		}
		rows.Close()
		for _, c := range others {
			if o, err := loadChannel(t.q, c, id); err == nil && o != nil && len(o.Labels) > 0 {
				ch.Labels, changed = dedupSorted(append(ch.Labels, o.Labels...)), true
			}
		}
	}
	if changed {
		if err := t.saveChannel(ch); err != nil {
			return err
		}
		if err := t.r.publishState(t, ch); err != nil {
			return err
		}
	}
	return p.afterPublish(t, ch, nil)
}

// uuidTakenElsewhere applies the reading labels-uuid-across-communities:
// under "refused", a UUID used (or deleted) in any other community is taken
// here too, and the create is refused as a conflict that names nothing of
// the other community's channel. Under "separate" (the default) each
// community has its own UUIDs.
func (p *labelsProfile) uuidTakenElsewhere(t *txn, ev *nostr.Event) error {
	if !p.readings.is(clause.ReadingLabelsUUIDAcross, "refused") {
		return nil
	}
	id, err := channelID(ev)
	if err != nil {
		return nil // the core rejects the h tag
	}
	var n int
	if err := t.tx.QueryRow(`SELECT COUNT(*) FROM used_uuids WHERE uuid = ? AND community <> ?`, id, t.community).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return reject("duplicate", "channel id already used")
	}
	return nil
}

// deletedRejection is the answer to a label command on a deleted channel;
// the reading labels-deleted-prefix chooses a lifecycle denial
// (restricted:) or an unknown channel (invalid:).
func (p *labelsProfile) deletedRejection(id string) *rejection {
	if p.readings.is(clause.ReadingLabelsDeletedPrefix, "invalid") {
		return &rejection{"invalid", "unknown channel " + id}
	}
	return &rejection{"restricted", "channel " + id + " is deleted"}
}

// --- 9002 -------------------------------------------------------------------

// onEdit handles an ordinary 9002 (no add-label/remove-label; label
// mutations never reach the core's edit path).
func (p *labelsProfile) onEdit(ev *nostr.Event, _, next *Channel) error {
	if err := p.misplaced(ev, "label", "l", "L", "t"); err != nil {
		return err
	}
	// Fault labels-edit-stale-labels: the edit writes back the label set it
	// read before the write lock.
	if st := p.takeStale(ev.ID); st != nil && p.faults.on(faultLabelsEditStaleLabels) {
		next.Labels = st.Labels
	}
	return nil
}

// mutation is a parsed label-only 9002.
type mutation struct {
	channel string
	add     []string // distinct
	remove  []string // distinct
	invalid error    // first invalid value (only kept under labels-partial-apply)
}

// parseMutation checks the shape of a label-only 9002.
func (p *labelsProfile) parseMutation(ev *nostr.Event) (*mutation, error) {
	id, err := channelUUID(ev)
	if err != nil {
		// Fault labels-h-tag-lenient: use the first well-formed h tag.
		if !p.faults.on(faultLabelsHTagLenient) {
			return nil, err
		}
		h := ev.Tags.Find("h")
		if h == nil {
			return nil, err
		}
		id = h[1]
	}
	if err := p.misplaced(ev, "label", "l", "L", "t"); err != nil {
		return nil, err
	}
	// Fault labels-mixed-edit-accepted: metadata tags ride along.
	if !p.faults.on(faultLabelsMixedEdit) {
		for _, tag := range ev.Tags {
			// Fault labels-envelope-tags-refused: any tag but h and the
			// label operations makes the mutation not label-only.
			if !slices.Contains([]string{"h", "add-label", "remove-label"}, tag[0]) && p.faults.on(faultLabelsEnvelopeRefused) {
				return nil, reject("invalid", "a label mutation must be label-only; %q is not allowed with add-label/remove-label", text.Clip(tag[0], 16))
			}
			// Reading labels-mixed-extended-fields: the draft names topic,
			// purpose and TTL but no tags for them; the relay refuses them
			// beside a label operation or ignores them (it has no such field).
			// Fault labels-mutation-channel-type-applied: channel_type rides along.
			if tag[0] == "channel_type" && p.faults.on(faultLabelsMutationRetypes) {
				continue
			}
			// Fault labels-unarchive-in-mutation: ["archived","false"] rides along.
			if len(tag) >= 2 && tag[0] == "archived" && tag[1] == "false" && p.faults.on(faultLabelsUnarchiveInMut) {
				continue
			}
			if slices.Contains(metadataTags, tag[0]) && !(p.readings.is(clause.ReadingLabelsMixedExtended, "ignored") && slices.Contains(extendedMetadataTags, tag[0])) {
				return nil, reject("invalid", "a label mutation must be label-only; %q is not allowed with add-label/remove-label", text.Clip(tag[0], 16))
			}
		}
	}
	m := &mutation{channel: id}
	raw := 0
	for _, tag := range ev.Tags {
		if tag[0] != "add-label" && tag[0] != "remove-label" {
			continue
		}
		// Fault labels-short-tags-skipped: a tag without a value is skipped.
		if len(tag) < 2 && p.faults.on(faultLabelsShortTagsSkipped) {
			continue
		}
		raw++
		if len(tag) != 2 {
			return nil, reject("invalid", `%s tags must be exactly [%q, <value>]`, tag[0], tag[0])
		}
		v, err := p.checkLabel(tag[1])
		// Fault labels-remove-values-unchecked: a remove-label value is
		// taken as it is (a noncanonical one is merely absent).
		if err != nil && tag[0] == "remove-label" && p.faults.on(faultLabelsRemoveUnchecked) {
			v, err = tag[1], nil
		}
		if err != nil {
			// Fault labels-partial-apply: skip the bad value, apply the rest,
			// then answer the rejection.
			if p.faults.on(faultLabelsPartialApply) {
				if m.invalid == nil {
					m.invalid = err
				}
				continue
			}
			return nil, err
		}
		if tag[0] == "add-label" {
			m.add = append(m.add, v)
		} else {
			m.remove = append(m.remove, v)
		}
	}
	// Fault labels-repeats-count-as-stored.
	if p.faults.on(faultLabelsRepeatsStored) && len(m.add) > maxStoredLabels {
		return nil, reject("invalid", "at most %d labels per channel, got %d", maxStoredLabels, len(m.add))
	}
	m.add, m.remove = dedupSorted(m.add), dedupSorted(m.remove)
	// Fault labels-mutation-distinct-values-capped.
	if p.faults.on(faultLabelsDistinctCapped) && len(m.add)+len(m.remove) > maxStoredLabels {
		return nil, reject("invalid", "at most %d distinct values per command, got %d", maxStoredLabels, len(m.add)+len(m.remove))
	}
	if p.rawLimitExceeded(raw, len(m.add)+len(m.remove)) {
		return nil, reject("invalid", "at most %d add-label/remove-label tags per command, got %d", maxRawLabelTags, raw)
	}
	// Fault labels-overlap-accepted.
	if !p.faults.on(faultLabelsOverlapAccepted) {
		for _, v := range m.add {
			if slices.Contains(m.remove, v) {
				return nil, reject("invalid", "label %q is both added and removed", v)
			}
		}
	}
	return m, nil
}

// mutate applies a label-only 9002 inside the command's transaction,
// against the channel state read in it: L' = (L ∪ A) \ R.
func (p *labelsProfile) mutate(t *txn, ev *nostr.Event) error {
	m, err := p.parseMutation(ev)
	if err != nil {
		return err
	}
	ch, err := t.channel(m.channel)
	if err != nil {
		return err
	}
	base := ch
	staleRole, useStaleRole := "", false
	// Fault labels-lifecycle-unserialized: lifecycle checks and the written
	// state come from a read taken before the write lock.
	if st := p.takeStale(ev.ID); st != nil && p.faults.on(faultLabelsLifecycleUnserial) && ch != nil {
		base = st.clone()
		base.Labels = ch.Labels
		base.storedMembers = nil // read before the lock: not what is stored
	} else if st != nil && p.faults.on(faultLabelsLostUpdate) && ch != nil {
		// Fault labels-lost-update: the label set comes from that early read.
		base = ch.clone()
		base.Labels = st.Labels
	} else if st != nil && p.faults.on(faultLabelsAuthorityUnserial) && ch != nil {
		// Fault labels-authority-unserialized: the author's role comes from
		// that early read; everything else is read under the lock.
		staleRole, useStaleRole = st.roleOf(ev.PubKey), true
	}
	switch {
	case base == nil:
		return reject("invalid", "unknown channel %s", m.channel)
	case base.Deleted && !p.faults.on(faultLabelsDeletedMutable):
		return p.deletedRejection(m.channel)
	}
	set := append(slices.Clone(base.Labels), m.add...)
	set = slices.DeleteFunc(dedupSorted(set), func(v string) bool { return slices.Contains(m.remove, v) })
	// Fault labels-limit-before-authority: the state limit is judged (and
	// explained) before the author's authority.
	if p.faults.on(faultLabelsLimitBeforeAuthority) && p.storedLimitExceeded(len(set)) {
		return reject("invalid", "the channel has %d labels; the result would have %d", len(base.Labels), len(set))
	}
	role := base.roleOf(ev.PubKey)
	if useStaleRole {
		role = staleRole
	}
	if !mayModerate(role) && !t.r.permits(actChangeLabels, role) {
		return p.storeRefused(t, ev, m.channel, reject("restricted", "only a channel owner or admin may change labels"))
	}
	if !labelTypeAllowed(base.Type) && !p.faults.on(faultLabelsDMAccepted) {
		// Reading labels-scope-mutation-prefix: labels not permitted on
		// the type (restricted:) or a command malformed for it (invalid:).
		prefix := "restricted"
		if p.readings.is(clause.ReadingLabelsMutationPrefix, "invalid") {
			prefix = "invalid"
		}
		return reject(prefix, "labels apply to stream and forum channels only, not %q", base.Type)
	}
	// Fault labels-unarchive-in-mutation: the command's ["archived","false"]
	// unarchives the channel first.
	unarchive := false
	if v, ok := lastTag(ev, "archived"); ok && v == "false" && p.faults.on(faultLabelsUnarchiveInMut) {
		unarchive = true
	}
	if base.Archived && !unarchive && !p.faults.on(faultLabelsArchivedMutable) {
		return p.storeRefused(t, ev, m.channel, reject("restricted", "channel %s is archived; unarchive it before changing labels", m.channel))
	}
	next := base.clone()
	if unarchive {
		next.Archived = false
	}
	if p.faults.on(faultLabelsMixedEdit) {
		if v, ok := lastTag(ev, "name"); ok {
			next.Name = v
		}
		if v, ok := lastTag(ev, "about"); ok {
			next.About = v
		}
		if v, ok := lastTag(ev, "archived"); ok {
			next.Archived = v == "true"
		}
	}
	if v, ok := lastTag(ev, "channel_type"); ok && p.faults.on(faultLabelsMutationRetypes) && labelTypeAllowed(v) {
		next.Type = v
	}
	// Fault labels-stored-limit-before-apply: the current set is counted.
	counted := len(set)
	if p.faults.on(faultLabelsLimitBeforeApply) {
		counted = len(base.Labels)
	}
	if p.storedLimitExceeded(counted) {
		// Reading labels-state-limit-prefix: the draft names no prefix for
		// a well-formed command that only the channel's state puts over the
		// limit.
		prefix := "invalid"
		if p.readings.is(clause.ReadingLabelsLimitPrefix, "restricted") {
			prefix = "restricted"
		}
		return reject(prefix, "the result would have %d labels; at most %d are allowed", len(set), maxStoredLabels)
	}
	next.Labels = set
	var prevSnap *nostr.Event
	if p.afterPublishNeedsPrev() {
		if prevSnap, err = t.currentState(kindGroupMetadata, next.UUID); err != nil {
			return err
		}
	}
	if err := t.r.commitCommand(t, ev, next); err != nil {
		return err
	}
	if err := p.afterPublish(t, next, prevSnap); err != nil {
		return err
	}
	if m.invalid != nil {
		if err := commitPartial(t); err != nil {
			return err
		}
		return m.invalid
	}
	return nil
}

// --- command hooks ------------------------------------------------------------

// command applies label mutations itself and wraps h-tagged creation.
func (p *labelsProfile) command(t *txn, ev *nostr.Event) (bool, error) {
	switch {
	case isLabelMutation(ev):
		return true, p.mutate(t, ev)
	case ev.Kind == kindCreateGroup && hasTag(ev, "h"):
		// Reading labels-malformed-used-h: a malformed h tag naming a used
		// UUID is refused as the conflict first.
		if h := ev.Tags.Find("h"); len(h) > 2 && p.readings.is(clause.ReadingLabelsMalformedUsedH, "duplicate") {
			if used, err := t.uuidUsed(h[1]); err != nil || used {
				if err != nil {
					return true, err
				}
				return true, reject("duplicate", "channel id already used")
			}
		}
		return true, p.create(t, ev)
	case ev.Kind == 5 && p.faults.on(faultLabelsEvidenceDeletable):
		// Fault labels-evidence-deletable: the author's kind 5 deletes the
		// stored commands it names, and with them the only evidence.
		for _, tag := range ev.Tags {
			if len(tag) >= 2 && tag[0] == "e" {
				if _, err := t.tx.Exec(`DELETE FROM events WHERE community = ? AND id = ? AND pubkey = ? AND kind IN (?, ?)`,
					t.community, tag[1], ev.PubKey, kindCreateGroup, kindEditMetadata); err != nil {
					return true, err
				}
			}
		}
	}
	return false, nil
}

// afterPublishNeedsPrev says whether a fault that afterPublish applies needs
// the 39000 the command replaces (without faults nothing reads it).
func (p *labelsProfile) afterPublishNeedsPrev() bool {
	return p.faults.on(faultLabelsNoopPublishes) || p.faults.on(faultLabelsStaleTimestamp) ||
		p.faults.on(faultLabelsSupersededMatched)
}

// afterPublish runs after a label command stored its channel and state:
// only fault switches change anything. prev is the 39000 the command
// replaced (nil for a create).
func (p *labelsProfile) afterPublish(t *txn, ch *Channel, prev *nostr.Event) error {
	snap := emittedSnapshot(t, ch.UUID)
	// Fault labels-noop-publishes: publish a fresh snapshot anyway.
	if snap == nil && prev != nil && p.faults.on(faultLabelsNoopPublishes) {
		var err error
		if snap, err = p.republish(t, ch, prev.CreatedAt+1); err != nil {
			return err
		}
	}
	if snap == nil {
		return nil
	}
	// Fault labels-stale-snapshot-timestamp: the replacement keeps the old
	// created_at.
	if prev != nil && p.faults.on(faultLabelsStaleTimestamp) {
		if _, err := p.republish(t, ch, prev.CreatedAt); err != nil {
			return err
		}
	}
	// Fault labels-superseded-matched: keep the replaced snapshot stored.
	if prev != nil && p.faults.on(faultLabelsSupersededMatched) {
		if err := t.insert(prev, ch.UUID); err != nil {
			return err
		}
		t.emitted = t.emitted[:len(t.emitted)-1]
	}
	// Fault labels-private-visible: a private channel's snapshot is stored
	// as an event of no channel, outside the ACL.
	if ch.Visibility == visibilityPrivate && p.faults.on(faultLabelsPrivateVisible) {
		if _, err := t.tx.Exec(`UPDATE events SET channel = '' WHERE community = ? AND kind = ? AND channel = ?`,
			t.community, kindGroupMetadata, ch.UUID); err != nil {
			return err
		}
	}
	return nil
}

// emittedSnapshot returns the 39000 of channel this transaction stored.
func emittedSnapshot(t *txn, uuid string) *nostr.Event {
	for i := len(t.emitted) - 1; i >= 0; i-- {
		if ev := t.emitted[i]; ev.Kind == kindGroupMetadata && ev.Tags.GetD() == uuid {
			return ev
		}
	}
	return nil
}

// republish replaces the channel's 39000 with one created at ts (faults only).
func (p *labelsProfile) republish(t *txn, ch *Channel, ts nostr.Timestamp) (*nostr.Event, error) {
	ev := &nostr.Event{Kind: kindGroupMetadata, CreatedAt: ts, Tags: t.r.stateTags(t, kindGroupMetadata, ch), Content: ""}
	if err := t.r.signer.sign(ev, t.r.stateKey()); err != nil {
		return nil, fmt.Errorf("sign state: %w", err)
	}
	if err := t.deleteWhere(condStateOfKind, kindGroupMetadata, ch.UUID); err != nil {
		return nil, err
	}
	return ev, t.insert(ev, ch.UUID)
}

// commitPartial commits what the transaction wrote so far, so the
// rejection the caller returns next cannot roll it back (the core's
// rollback of the finished transaction is a no-op). Only the
// partial-application faults use it; the caller must return right after,
// and live delivery of the committed part is skipped.
func commitPartial(t *txn) error {
	t.emitted = nil
	return t.tx.Commit()
}

// --- state, retries, answers -----------------------------------------------

// stateTags: exactly one ["t", type]; a nonempty label set adds
// ["L","nip-cl"] and one ["l", v, "nip-cl"] per value, sorted.
func (p *labelsProfile) stateTags(kind int, ch *Channel) nostr.Tags {
	if kind != kindGroupMetadata {
		return nil
	}
	tags := nostr.Tags{{"t", ch.Type}}
	if len(ch.Labels) == 0 {
		return tags
	}
	tags = append(tags, nostr.Tag{"L", labelNamespace})
	labels := slices.Clone(ch.Labels)
	sort.Strings(labels)
	for _, v := range labels {
		tags = append(tags, nostr.Tag{"l", v, labelNamespace})
	}
	return tags
}

// readSQL: the correct relay needs nothing beyond the core (current
// snapshots only, every predicate and the ACL before LIMIT).
func (p *labelsProfile) readSQL(f *nostr.Filter, rd *reader) (string, []any) {
	// Fault labels-limit-before-match: only the newest page of snapshots
	// (as many as the filter's limit) is matched against #l/#L.
	if p.faults.on(faultLabelsLimitBeforeMatch) && (f.Tags["l"] != nil || f.Tags["L"] != nil) {
		limit := f.Limit
		if limit <= 0 {
			limit = DefaultDefaultLimit
		}
		return `e.seq IN (SELECT s.seq FROM events s WHERE s.community = ? AND s.kind = ? ORDER BY s.created_at DESC, s.id ASC LIMIT ?)`,
			[]any{rd.community, kindGroupMetadata, limit}
	}
	// Fault labels-ids-limit-before-acl: an ids read's limit picks the
	// newest named events before the read ACL drops the withheld ones.
	if p.faults.on(faultLabelsIDsLimitBeforeACL) && len(f.IDs) > 0 && f.Limit > 0 {
		args := []any{rd.community}
		for _, id := range f.IDs {
			args = append(args, id)
		}
		return `e.seq IN (SELECT s.seq FROM events s WHERE s.community = ? AND s.id IN (` + placeholders(len(f.IDs)) +
			`) ORDER BY s.created_at DESC, s.id ASC LIMIT ?)`, append(args, f.Limit)
	}
	return "", nil
}

// duplicate answers an exact retry. A covered command is stored only by the
// transaction that applied it, so the stored event is application evidence;
// the retry must still pass admission against current state (this runs
// inside the write transaction, the commands' serialization boundary).
func (p *labelsProfile) duplicate(t *txn, ev *nostr.Event) (bool, string) {
	if !covered(ev) {
		return p.noneProfile.duplicate(t, ev)
	}
	// Fault labels-conflict-before-retry.
	if ev.Kind == kindCreateGroup && p.faults.on(faultLabelsConflictFirst) {
		return false, "duplicate: nip-cl-rejected channel id already used"
	}
	committed := "duplicate: nip-cl-committed"
	// Fault labels-retry-skips-admission.
	if p.faults.on(faultLabelsRetrySkipsAdmit) {
		return true, committed
	}
	id, err := channelID(ev)
	if err != nil {
		return false, "error: nip-cl-unknown stored command has no channel"
	}
	ch, err := t.channel(id)
	switch {
	case err != nil:
		return false, "error: nip-cl-unknown application evidence unavailable"
	case ch == nil:
		return false, "error: nip-cl-unknown application evidence unavailable"
	case ch.Deleted && ev.Kind == kindCreateGroup && p.readings.is(clause.ReadingLabelsDeletedCreate, "conflict"):
		// Reading labels-deleted-create-retry: the retried create of a
		// deleted channel is a create of a used UUID.
		return false, "duplicate: nip-cl-rejected channel id already used"
	case ch.Deleted:
		rj := p.deletedRejection(id)
		return false, rj.prefix + ": nip-cl-rejected " + rj.msg
	case ch.Archived:
		return false, "restricted: nip-cl-rejected channel is archived"
	case !mayModerate(ch.roleOf(ev.PubKey)):
		return false, "restricted: nip-cl-rejected author is no longer a channel owner or admin"
	}
	// Fault labels-retry-reapplies: apply the stored command once more.
	if p.faults.on(faultLabelsRetryReapplies) {
		if err := p.reapply(t, ev, ch); err != nil {
			return false, "error: nip-cl-unknown " + err.Error()
		}
	}
	return true, committed
}

// reapply is the labels-retry-reapplies fault: the retry is applied again.
func (p *labelsProfile) reapply(t *txn, ev *nostr.Event, ch *Channel) error {
	if isLabelMutation(ev) {
		if err := t.deleteWhere(condEventID, ev.ID); err != nil {
			return err
		}
		return p.mutate(t, ev)
	}
	prev, err := t.currentState(kindGroupMetadata, ch.UUID)
	if err != nil || prev == nil {
		return err
	}
	_, err = p.republish(t, ch, prev.CreatedAt+1)
	return err
}

// okReason puts the fixed nip-cl markers on covered commands' rejections:
// "<prefix>: nip-cl-rejected <detail>", or nip-cl-unknown where the commit
// outcome is not known. A conflicting create's detail never names the
// existing channel.
func (p *labelsProfile) okReason(ev *nostr.Event, accepted bool, reason string) string {
	if accepted || !covered(ev) || strings.Contains(reason, "nip-cl-") {
		return reason
	}
	// Fault labels-no-marker.
	if p.faults.on(faultLabelsNoMarker) {
		return reason
	}
	prefix, detail, ok := strings.Cut(reason, ": ")
	if !ok {
		prefix, detail = "error", reason
	}
	marker := "nip-cl-rejected"
	if prefix == "error" && strings.HasPrefix(detail, "commit failed") {
		marker = "nip-cl-unknown"
	}
	if prefix == "duplicate" && ev.Kind == kindCreateGroup && !p.faults.on(faultLabelsConflictDiscloses) {
		detail = "channel id already used"
	}
	return prefix + ": " + marker + " " + detail
}
