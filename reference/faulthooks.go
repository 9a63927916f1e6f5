package reference

import (
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nbd-wtf/go-nostr"
)

// Install funcs of the faults that are hook sets (their rows' install
// field): each appends to general hook slices (hooks, variants.go; called
// in hooks.go), so the conforming code does not name the fault.

// editState is the install func of a fault that edits the tags of the
// state events the relay publishes.
func editState(edit func(r *Relay, kind int, ch *Channel, tags nostr.Tags) nostr.Tags) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.editStateTags = append(r.hooks.editStateTags, func(kind int, ch *Channel, tags nostr.Tags) nostr.Tags {
			return edit(r, kind, ch, tags)
		})
	}
}

// editOK is the install func of a fault that rewrites OK reasons.
func editOK(edit func(ev *nostr.Event, accepted bool, reason string) string) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.okText = append(r.hooks.okText, edit)
	}
}

// editNIP11 is the install func of a fault that edits the NIP-11 document.
func editNIP11(edit func(info *Info)) func(r *Relay) {
	return func(r *Relay) {
		r.hooks.editInfo = append(r.hooks.editInfo, edit)
	}
}

// withoutTags returns tags without those for which drop is true.
func withoutTags(tags nostr.Tags, drop func(tag nostr.Tag) bool) nostr.Tags {
	return slices.DeleteFunc(slices.Clone(tags), drop)
}

// tagNamed reports whether tag is named one of names.
func tagNamed(tag nostr.Tag, names ...string) bool {
	return len(tag) > 0 && slices.Contains(names, tag[0])
}

// --- baseline (faults_nip29.go) ---------------------------------------------

// okWithoutPrefix: ok-without-prefix leaves out a refusal's
// machine-readable prefix.
var okWithoutPrefix = editOK(func(_ *nostr.Event, accepted bool, reason string) string {
	if accepted {
		return reason
	}
	if _, rest, found := strings.Cut(reason, ":"); found {
		return strings.TrimSpace(rest)
	}
	return reason
})

// adminsWithoutRoles: admins-without-roles lists 39001's admins with no
// role.
var adminsWithoutRoles = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupAdmins {
		return tags
	}
	out := slices.Clone(tags)
	for i, tag := range out {
		if tagNamed(tag, "p") && len(tag) > 2 {
			out[i] = tag[:2]
		}
	}
	return out
})

// subgroupsNotAdvertised: subgroups-not-advertised says nothing of
// subgroups in NIP-11.
var subgroupsNotAdvertised = editNIP11(func(info *Info) { info.NIP29 = nil })

// nip11HostNoExtension: identity-nip11-host-no-extension and
// labels-nip11-host-no-extension serve a community other than the first
// asked a NIP-11 document without nip-cl.
func nip11HostNoExtension(r *Relay) {
	r.hooks.serveInfo = append(r.hooks.serveInfo, func(req *http.Request, doc *Info) {
		if r.faulty.nip11Secondary(communityOf(req)) {
			doc.SupportedExtensions = slices.DeleteFunc(doc.SupportedExtensions, func(e string) bool { return e == "nip-cl" })
		}
	})
}

// --- identity (faults_identity.go) ------------------------------------------

// idNIPCLInNIPs: identity-nip-cl-in-supported-nips lists "nip-cl" among
// the NIP numbers.
var idNIPCLInNIPs = editNIP11(func(info *Info) {
	info.SupportedNIPs = append(slices.Clone(info.SupportedNIPs), "nip-cl")
})

// idTagsOnlyOn39000: the identity tags (t, P) go on 39000 only.
var idTagsOnlyOn39000 = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind == kindGroupMetadata {
		return tags
	}
	return withoutTags(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "t", "P") })
})

// idLabelOrderDiffers: the label t tags (after the type's) are sorted on
// every state kind but 39000.
var idLabelOrderDiffers = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind == kindGroupMetadata {
		return tags
	}
	out := slices.Clone(tags)
	var at []int
	var labels []string
	for i, tag := range out {
		if tagNamed(tag, "t") && len(tag) > 1 {
			at = append(at, i)
			labels = append(labels, tag[1])
		}
	}
	if len(at) < 2 {
		return tags
	}
	labels = labels[1:]
	sort.Strings(labels)
	for j, i := range at[1:] {
		out[i] = nostr.Tag{"t", labels[j]}
	}
	return out
})

// idCreatorFollowsOwner: the P tag names the channel's current owner, not
// its creator.
var idCreatorFollowsOwner = editState(func(_ *Relay, _ int, ch *Channel, tags nostr.Tags) nostr.Tags {
	owner := ""
	for _, pk := range sortedMembers(ch) {
		if ch.Members[pk] == roleOwner {
			owner = pk
			break
		}
	}
	if owner == "" {
		return tags
	}
	out := slices.Clone(tags)
	for i, tag := range out {
		if tagNamed(tag, "P") {
			out[i] = nostr.Tag{"P", owner}
		}
	}
	return out
})

// idCreatorBeforeType: the P tag comes before the channel type's t tag.
var idCreatorBeforeType = editState(func(_ *Relay, _ int, _ *Channel, tags nostr.Tags) nostr.Tags {
	p := slices.IndexFunc(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "P") })
	t := slices.IndexFunc(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "t") })
	if p < 0 || t < 0 || p < t {
		return tags
	}
	out := slices.Clone(tags)
	ptag := out[p]
	out = slices.Delete(out, p, p+1)
	return slices.Insert(out, t, ptag)
})

// idCreatedAtBackdated: 39000's created_at tag is backdated.
var idCreatedAtBackdated = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	out := slices.Clone(tags)
	for i, tag := range out {
		if tagNamed(tag, "created_at") && len(tag) > 1 {
			if at, err := strconv.ParseInt(tag[1], 10, 64); err == nil {
				out[i] = nostr.Tag{"created_at", strconv.FormatInt(at-createdAtBackdate, 10)}
			}
		}
	}
	return out
})

// idHiddenMissing: a private system channel's 39000 lacks the hidden tag.
var idHiddenMissing = editState(func(_ *Relay, kind int, ch *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata || ch.Type != typeSystem || ch.Visibility != visibilityPrivate || ch.Hidden {
		return tags
	}
	return withoutTags(tags, func(tag nostr.Tag) bool { return tagNamed(tag, "hidden") })
})

// idHiddenOnOpen: an open system channel's 39000 is marked hidden too.
var idHiddenOnOpen = editState(func(_ *Relay, kind int, ch *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata || ch.Type != typeSystem || ch.Visibility == visibilityPrivate || ch.Hidden {
		return tags
	}
	return append(slices.Clone(tags), nostr.Tag{"hidden"})
})

// --- labels (faults_labels.go) ----------------------------------------------

// labelsNoNamespace: 39000 carries the l tags without ["L", "nip-cl"].
var labelsNoNamespace = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	return withoutTags(tags, func(tag nostr.Tag) bool {
		return tagNamed(tag, "L") && len(tag) > 1 && tag[1] == labelNamespace
	})
})

// isLabelTag reports whether tag is one of 39000's ["l", v, "nip-cl"].
func isLabelTag(tag nostr.Tag) bool {
	return tagNamed(tag, "l") && len(tag) > 2 && tag[2] == labelNamespace
}

// labelsUnsorted: 39000's l tags come in reverse ASCII order.
var labelsUnsorted = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	out := slices.Clone(tags)
	var at []int
	for i, tag := range out {
		if isLabelTag(tag) {
			at = append(at, i)
		}
	}
	for a, b := 0, len(at)-1; a < b; a, b = a+1, b-1 {
		out[at[a]], out[at[b]] = out[at[b]], out[at[a]]
	}
	return out
})

// labelsAsTTags: 39000 repeats every label as a t tag.
var labelsAsTTags = editState(func(_ *Relay, kind int, _ *Channel, tags nostr.Tags) nostr.Tags {
	if kind != kindGroupMetadata {
		return tags
	}
	out := slices.Clone(tags)
	for _, tag := range tags {
		if isLabelTag(tag) {
			out = append(out, nostr.Tag{"t", tag[1]})
		}
	}
	return out
})

// labelsRetryEmptyReason: a committed retry is answered OK true with an
// empty reason instead of "duplicate: nip-cl-committed".
var labelsRetryEmptyReason = editOK(func(_ *nostr.Event, accepted bool, reason string) string {
	if accepted && reason == "duplicate: nip-cl-committed" {
		return ""
	}
	return reason
})
