package reference

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func init() { maps.Copy(faultProbes, subgroupProbes) }

// tagValues returns the values of every name tag of ev, in order.
func tagValues(ev *nostr.Event, name string) []string {
	var out []string
	if ev == nil {
		return nil
	}
	for _, tag := range ev.Tags {
		if len(tag) >= 2 && tag[0] == name {
			out = append(out, tag[1])
		}
	}
	return out
}

// tree is a test fixture: an owner's connection and a few groups.
type tree struct {
	t     *testing.T
	c     *client
	owner actor
}

func newTree(t *testing.T, url string) *tree {
	owner := newActor(t)
	c := dial(t, url)
	c.auth(owner)
	return &tree{t, c, owner}
}

// group creates a group with an ordinary id.
func (x *tree) group(prefix string) string {
	id := prefix + "-" + newChannelID()[:8]
	x.c.mustPublish(x.owner.bare(x.t, id))
	return id
}

// adopt makes child a child of parent (the owner's 9002).
func (x *tree) adopt(child, parent string) *nostr.OKEnvelope {
	return x.c.publish(x.owner.edit(x.t, child, nostr.Tag{"parent", parent}))
}

func (x *tree) parent(id string) []string {
	return tagValues(x.c.state(kindGroupMetadata, id), "parent")
}
func (x *tree) children(id string) []string {
	return tagValues(x.c.state(kindGroupMetadata, id), "child")
}

// family makes a parent with two children, adopted in order.
func (x *tree) family() (p, c1, c2 string) {
	p, c1, c2 = x.group("parent"), x.group("one"), x.group("two")
	for _, c := range []string{c1, c2} {
		if ok := x.adopt(c, p); !ok.OK {
			x.t.Fatalf("adopt %s: %q", c, ok.Reason)
		}
	}
	return p, c1, c2
}

var subgroupProbes = map[FaultName]faultProbe{
	faultSubgroupsNotAdvertised: func(t *testing.T, r *Relay, url string) bool {
		info := r.Info()
		return info.NIP29 == nil || !info.NIP29.Subgroups
	},
	faultSubgroupParentNotShown: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, _ := x.family()
		return !slices.Equal(x.parent(c1), []string{p})
	},
	faultSubgroupChildNotListed: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, c2 := x.family()
		return !slices.Equal(x.children(p), []string{c1, c2})
	},
	faultSubgroupReorderIgnored: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, c2 := x.family()
		x.c.mustPublish(x.owner.edit(t, p, nostr.Tag{"child", c2}, nostr.Tag{"child", c1}))
		return !slices.Equal(x.children(p), []string{c2, c1})
	},
	faultSubgroupCycleAccepted: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, _ := x.family()
		return x.adopt(p, p).OK || x.adopt(p, c1).OK
	},
	faultSubgroupUnknownParent: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		return x.adopt(x.group("orphan"), "no-such-group-"+newChannelID()[:8]).OK
	},
	faultSubgroupParentAdminUnchecked: func(t *testing.T, r *Relay, url string) bool {
		x, y := newTree(t, url), newTree(t, url)
		p, c := x.group("theirs"), y.group("mine")
		return y.adopt(c, p).OK
	},
	faultSubgroupChildrenOmitted: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, _ := x.family()
		return x.c.publish(x.owner.edit(t, p, nostr.Tag{"child", c1})).OK
	},
	faultSubgroupDetachIgnored: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, _ := x.family()
		x.c.mustPublish(x.owner.edit(t, c1, nostr.Tag{"name", "root now"}))
		return len(x.parent(c1)) != 0 || slices.Contains(x.children(p), c1)
	},
	faultSubgroupMoveDropsHistory: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, g := x.group("parent"), x.group("history")
		m := x.owner.msg(t, g, "before the move", 0)
		x.c.mustPublish(m)
		if ok := x.adopt(g, p); !ok.OK {
			t.Fatalf("adopt %s: %q", g, ok.Reason)
		}
		return len(x.c.query(nostr.Filter{IDs: []string{m.ID}})) == 0
	},
	faultSubgroupOrphansKept: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, _ := x.family()
		x.c.mustPublish(x.owner.event(t, kindDeleteGroup, nostr.Tags{{"h", p}}, "", 0))
		return len(x.parent(c1)) != 0
	},
	faultSubgroupAdminInherited: func(t *testing.T, r *Relay, url string) bool {
		x := newTree(t, url)
		p, c1, _ := x.family()
		admin, friend := newActor(t), newActor(t)
		x.c.mustPublish(x.owner.put(t, p, admin.pk, roleAdmin))
		ca := dial(t, url)
		ca.auth(admin)
		return ca.publish(admin.put(t, c1, friend.pk, "")).OK
	},
}

// TestSubgroups walks NIP-29's subgroup rules on the clean relay.
func TestSubgroups(t *testing.T) {
	r, url := startRelay(t, Config{Profile: "nip29"})
	if info := r.Info(); info.NIP29 == nil || !info.NIP29.Subgroups {
		t.Fatal(`NIP-11 lacks "nip29": {"subgroups": true}`)
	}
	x := newTree(t, url)
	p, c1, c2 := x.family()
	if got := x.children(p); !slices.Equal(got, []string{c1, c2}) {
		t.Fatalf("children of %s = %v", p, got)
	}
	if got := x.parent(c2); !slices.Equal(got, []string{p}) {
		t.Fatalf("parent of %s = %v", c2, got)
	}
	// Rejections leave the tree as it was.
	other := newTree(t, url)
	foreign := other.group("foreign")
	for _, tc := range []struct {
		name string
		c    *client
		ev   *nostr.Event
		want string
	}{
		{"two parents", x.c, x.owner.edit(t, c1, nostr.Tag{"parent", p}, nostr.Tag{"parent", c2}), "invalid:"},
		{"self", x.c, x.owner.edit(t, p, nostr.Tag{"parent", p}), "invalid:"},
		{"cycle", x.c, x.owner.edit(t, p, nostr.Tag{"parent", c1}), "invalid:"},
		{"unknown parent", x.c, x.owner.edit(t, c1, nostr.Tag{"parent", "nowhere"}), "invalid:"},
		{"not admin of parent", other.c, other.owner.edit(t, foreign, nostr.Tag{"parent", p}), "restricted:"},
		{"omitted child", x.c, x.owner.edit(t, p, nostr.Tag{"child", c2}), "invalid:"},
		{"stranger child", x.c, x.owner.edit(t, p, nostr.Tag{"child", c2}, nostr.Tag{"child", c1}, nostr.Tag{"child", foreign}), "invalid:"},
	} {
		ok := tc.c.publish(tc.ev)
		if ok.OK || !strings.HasPrefix(ok.Reason, tc.want) {
			t.Errorf("%s: %v %q, want false %q", tc.name, ok.OK, ok.Reason, tc.want)
		}
	}
	if got := x.children(p); !slices.Equal(got, []string{c1, c2}) {
		t.Fatalf("children of %s after the refusals = %v", p, got)
	}
	// Reorder, move, detach, delete.
	x.c.mustPublish(x.owner.edit(t, p, nostr.Tag{"child", c2}, nostr.Tag{"child", c1}))
	if got := x.children(p); !slices.Equal(got, []string{c2, c1}) {
		t.Fatalf("children after the reorder = %v", got)
	}
	q := x.group("other-parent")
	if ok := x.adopt(c1, q); !ok.OK {
		t.Fatalf("move: %q", ok.Reason)
	}
	if got, gotQ := x.children(p), x.children(q); !slices.Equal(got, []string{c2}) || !slices.Equal(gotQ, []string{c1}) {
		t.Fatalf("after the move: %s has %v, %s has %v", p, got, q, gotQ)
	}
	x.c.mustPublish(x.owner.edit(t, c1, nostr.Tag{"name", "a root"}))
	if got := x.parent(c1); len(got) != 0 || len(x.children(q)) != 0 {
		t.Fatalf("after detaching: parent %v, %s children %v", got, q, x.children(q))
	}
	x.c.mustPublish(x.owner.event(t, kindDeleteGroup, nostr.Tags{{"h", p}}, "", 0))
	if got := x.parent(c2); len(got) != 0 {
		t.Fatalf("after deleting the parent: %s still has parent %v", c2, got)
	}
}
