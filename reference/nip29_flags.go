package reference

import (
	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/clause"
)

// NIP-29 group metadata: the fields a 9002 edit-metadata carries ("all the
// fields of group-metadata") and the flags of kind 39000.
//
// The reference relay's reading:
//
//   - name, about, picture and banner: the last tag of each name sets the
//     field (an empty value clears it); an absent field is kept, so a 9002
//     is a patch. (Under the reading nip29-edit-metadata=replace, a 9002
//     that carries any of the fields and flags below is the whole new
//     metadata: absent fields are cleared and absent flags unset.) A 9007
//     may carry the same fields (a bare 9007 carries none: the group
//     starts public and open, without a name).
//   - flags: a one-element tag ["private"], ["closed"], ["hidden"] or
//     ["restricted"] sets the flag (extra elements are ignored). NIP-29 has
//     no tag that clears a flag, so the relay also reads relay29's clearing
//     tags: ["public"] clears private, ["open"] clears closed, ["visible"]
//     clears hidden and ["unrestricted"] clears restricted. A flag that the
//     event neither sets nor clears is kept; an event that both sets and
//     clears one flag is refused ("invalid:").
//   - private is the harness's ["visibility", "open"|"private"] tag as well:
//     the two spellings are one flag, stored as Channel.Visibility. A
//     visibility tag that contradicts a private/public tag of the same event
//     is refused ("invalid:").
//   - a 9002 that carries none of these tags (a NIP-CL label-only edit:
//     add-label/remove-label, or identity's t tags) leaves every field and
//     flag as it was.

// groupFlag is one NIP-29 flag: the tag that sets it and the tag that
// clears it (relay29's spelling).
type groupFlag struct{ set, clear string }

var (
	flagPrivate    = groupFlag{"private", "public"}
	flagClosed     = groupFlag{"closed", "open"}
	flagHidden     = groupFlag{"hidden", "visible"}
	flagRestricted = groupFlag{"restricted", "unrestricted"}
)

// read returns the flag's value as the event gives it: present is false
// when the event neither sets nor clears it.
func (f groupFlag) read(ev *nostr.Event) (value, present bool, err error) {
	set, clear := hasTag(ev, f.set), hasTag(ev, f.clear)
	if set && clear {
		return false, true, reject("invalid", "[%q] and [%q] contradict each other", f.set, f.clear)
	}
	return set, set || clear, nil
}

// metadataFields are the text fields of group metadata, in 39000 order.
var metadataFields = []string{"name", "picture", "banner", "about"}

// applyMetadata applies the NIP-29 metadata fields and flags of a 9007 or
// 9002 to ch (see the reading above). An error rejects the whole event;
// ch may then be partly changed, so callers pass a copy.
func (r *Relay) applyMetadata(ev *nostr.Event, ch *Channel) error {
	// Reading nip29-edit-metadata: a 9002 is a patch (absent fields and
	// flags are kept) or, when it carries any NIP-29 metadata, the whole
	// new metadata (absent fields cleared, absent flags unset).
	if ev.Kind == kindEditMetadata && carriesMetadata(ev) && r.reading(clause.ReadingNIP29EditMetadata, "replace") {
		ch.Name, ch.Picture, ch.Banner, ch.About = "", "", "", ""
		ch.Visibility, ch.Closed, ch.Hidden, ch.Restricted = visibilityOpen, false, false, false
	}
	for _, name := range metadataFields {
		v, ok := lastTag(ev, name)
		if !ok {
			continue
		}
		// Fault metadata-field-dropped: a 9002's about and picture are lost.
		if ev.Kind == kindEditMetadata && (name == "about" || name == "picture") && r.fault(faultMetadataFieldDropped) {
			continue
		}
		switch name {
		case "name":
			ch.Name = v
		case "picture":
			ch.Picture = v
		case "banner":
			// Fault banner-dropped: the banner is lost.
			if !r.fault(faultBannerDropped) {
				ch.Banner = v
			}
		case "about":
			ch.About = v
		}
	}

	private, hasPrivate, err := flagPrivate.read(ev)
	if err != nil {
		return err
	}
	if vis, ok := lastTag(ev, "visibility"); ok {
		if vis != visibilityOpen && vis != visibilityPrivate {
			return reject("invalid", "visibility must be open or private")
		}
		if hasPrivate && private != (vis == visibilityPrivate) {
			return reject("invalid", "the visibility tag %q contradicts the event's private/public tag", vis)
		}
		private, hasPrivate = vis == visibilityPrivate, true
	}
	if hasPrivate {
		ch.Visibility = visibilityOpen
		if private {
			ch.Visibility = visibilityPrivate
		}
	}

	closed, ok, err := flagClosed.read(ev)
	if err != nil {
		return err
	}
	if ok {
		// Fault closed-flag-inverted: ["closed"] opens, ["open"] closes.
		if r.fault(faultClosedFlagInverted) {
			closed = !closed
		}
		ch.Closed = closed
	}
	for _, f := range []struct {
		flag groupFlag
		to   *bool
	}{{flagHidden, &ch.Hidden}, {flagRestricted, &ch.Restricted}} {
		v, ok, err := f.flag.read(ev)
		if err != nil {
			return err
		}
		if ok {
			*f.to = v
		}
	}
	return nil
}

// carriesMetadata reports whether ev has any NIP-29 metadata tag: a field,
// a flag (or its clearing tag) or the harness's visibility tag.
func carriesMetadata(ev *nostr.Event) bool {
	for _, name := range metadataFields {
		if hasTag(ev, name) {
			return true
		}
	}
	for _, f := range []groupFlag{flagPrivate, flagClosed, flagHidden, flagRestricted} {
		if hasTag(ev, f.set) || hasTag(ev, f.clear) {
			return true
		}
	}
	return hasTag(ev, "visibility")
}

// metadataStateTags are the 39000 tags of the group metadata: name,
// picture, banner and about when set, then the flags: ["private"] or
// ["public"], ["closed"] or ["open"], and ["hidden"] and ["restricted"]
// when set.
func metadataStateTags(ch *Channel) nostr.Tags {
	var tags nostr.Tags
	for _, f := range [][2]string{{"name", ch.Name}, {"picture", ch.Picture}, {"banner", ch.Banner}, {"about", ch.About}} {
		if f[1] != "" {
			tags = append(tags, nostr.Tag{f[0], f[1]})
		}
	}
	if ch.Visibility == visibilityPrivate {
		tags = append(tags, nostr.Tag{flagPrivate.set})
	} else {
		tags = append(tags, nostr.Tag{flagPrivate.clear})
	}
	if ch.Closed {
		tags = append(tags, nostr.Tag{flagClosed.set})
	} else {
		tags = append(tags, nostr.Tag{flagClosed.clear})
	}
	if ch.Hidden {
		tags = append(tags, nostr.Tag{flagHidden.set})
	}
	if ch.Restricted {
		tags = append(tags, nostr.Tag{flagRestricted.set})
	}
	return tags
}

// roleDescriptions are the roles the relay supports, as its 39003 lists
// them (highest first).
var roleDescriptions = [][2]string{
	{roleOwner, "may edit the metadata, put and remove users (owners too), grant the owner role and delete the group"},
	{roleAdmin, "may edit the metadata and put and remove users other than owners"},
	{roleMember, "may read a private group and post in a restricted one"},
}

// --- hidden groups ----------------------------------------------------------

// hiddenKinds are the kinds a hidden group serves to its members only: its
// relay-signed state, 39000-39003.
func (r *Relay) hiddenKinds() []int {
	// Fault hidden-metadata-served: the 39000 is served to everyone.
	if r.fault(faultHiddenMetadataServed) {
		return []int{kindGroupAdmins, kindGroupMembers, kindGroupRoles}
	}
	return []int{kindGroupMetadata, kindGroupAdmins, kindGroupMembers, kindGroupRoles}
}
