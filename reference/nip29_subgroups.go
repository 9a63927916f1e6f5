package reference

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nipcl/nipcl-conform/internal/text"
	"slices"

	"github.com/nbd-wtf/go-nostr"
)

// NIP-29 subgroups: a group's 39000 may carry one ["parent", <id>] and a
// parent's 39000 lists its children as ordered ["child", <id>] tags.
//
// The reference relay's reading (it advertises "nip29": {"subgroups": true}
// in NIP-11):
//
//   - a 9002 with one ["parent", X] makes the group a child of X: X must be
//     a live group of the community, other than the group itself and not
//     one of its descendants ("invalid:" otherwise), and the author must be
//     an owner or admin of X ("restricted:"). A 9002 with two parent tags,
//     or an empty parent value, is "invalid:".
//   - a 9002 without a parent tag makes the group a root ("no parent tag
//     to detach"), whatever else it carries: a child's later metadata edit
//     repeats its parent tag to stay a child.
//   - the new parent's 39000 gets the child appended as the last ["child"]
//     tag; a previous parent's 39000 drops it. Both are republished in the
//     9002's transaction.
//   - a 9002 carrying ["child", ...] tags reorders the group's children:
//     the tags must name every current child exactly once and nothing
//     else ("invalid:"); the new order replaces the old. A 9002 without
//     child tags leaves the children as they are (the reading of "edits
//     that do not include all the children ... MUST be rejected" that
//     applies it to edits carrying a child list).
//   - a 9008 on a parent makes its children roots (their 39000 lose the
//     parent tag) and takes the deleted group out of its own parent's list.
//   - membership and roles are per group: nothing is inherited.

// subgroupsSchema holds each group's place in the
// tree. A group without a row is a root without children.
const subgroupsSchema = `
CREATE TABLE IF NOT EXISTS group_tree (
	community TEXT NOT NULL,
	uuid      TEXT NOT NULL,
	parent    TEXT NOT NULL DEFAULT '',
	children  TEXT NOT NULL DEFAULT '[]', -- JSON array, in order
	PRIMARY KEY (community, uuid)
);
`

// nip29Info is the NIP-11 "nip29" object.
type nip29Info struct {
	Subgroups bool `json:"subgroups"`
}

// nip29Info returns the relay's NIP-11 "nip29" object (nil: none).
func (r *Relay) nip29Info() *nip29Info {
	if r.lacks(featureSubgroups) {
		return nil
	}
	return &nip29Info{Subgroups: true}
}

// treeNode is one group's place in the tree.
type treeNode struct {
	parent   string
	children []string
}

func (t *txn) treeNode(id string) (treeNode, error) {
	var n treeNode
	var children string
	err := t.tx.QueryRow(`SELECT parent, children FROM group_tree WHERE community = ? AND uuid = ?`, t.community, id).Scan(&n.parent, &children)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return treeNode{}, nil
		}
		return n, fmt.Errorf("group tree %s: %w", id, err)
	}
	if err := json.Unmarshal([]byte(children), &n.children); err != nil {
		return n, fmt.Errorf("group tree %s children: %w", id, err)
	}
	return n, nil
}

func (t *txn) saveTreeNode(id string, n treeNode) error {
	children, _ := json.Marshal(nonNil(n.children))
	_, err := t.tx.Exec(`INSERT INTO group_tree (community, uuid, parent, children) VALUES (?, ?, ?, ?)
		ON CONFLICT (community, uuid) DO UPDATE SET parent = excluded.parent, children = excluded.children`,
		t.community, id, n.parent, string(children))
	if err != nil {
		return fmt.Errorf("save group tree %s: %w", id, err)
	}
	return nil
}

// treeTags are the subgroup tags of a group's 39000: its parent, then its
// children in order.
func (t *txn) treeTags(id string) (nostr.Tags, error) {
	n, err := t.treeNode(id)
	if err != nil {
		return nil, err
	}
	var tags nostr.Tags
	// Fault subgroup-parent-not-shown: the child's 39000 has no parent tag.
	if n.parent != "" && !t.r.fault(faultSubgroupParentNotShown) {
		tags = append(tags, nostr.Tag{"parent", n.parent})
	}
	// Fault subgroup-child-not-listed: the parent's 39000 has no child tags.
	if !t.r.fault(faultSubgroupChildNotListed) {
		for _, c := range n.children {
			tags = append(tags, nostr.Tag{"child", c})
		}
	}
	return tags, nil
}

// editTree applies the parent and child tags of the 9002 ev to group ch
// (see the reading above) and republishes the other groups it changes;
// the caller republishes ch itself.
func (r *Relay) editTree(t *txn, ev *nostr.Event, ch *Channel) error {
	if r.lacks(featureSubgroups) { // parent and child tags are not implemented
		return nil
	}
	var parents []string
	for _, tag := range ev.Tags {
		if len(tag) > 0 && tag[0] == "parent" {
			if len(tag) < 2 || tag[1] == "" {
				return reject("invalid", `a parent tag needs a group id: ["parent", <id>]`)
			}
			parents = append(parents, tag[1])
		}
	}
	if len(parents) > 1 {
		return reject("invalid", "a 9002 carries at most one parent tag, got %d", len(parents))
	}
	node, err := t.treeNode(ch.UUID)
	if err != nil {
		return err
	}
	if hasTag(ev, "child") {
		var list []string
		for _, tag := range ev.Tags {
			if len(tag) >= 2 && tag[0] == "child" {
				list = append(list, tag[1])
			}
		}
		// Fault subgroup-children-omitted-accepted: a partial list is
		// taken as it is.
		if !r.fault(faultSubgroupChildrenOmitted) {
			if err := sameChildren(list, node.children); err != nil {
				return err
			}
		}
		// Fault subgroup-reorder-ignored: the old order stays.
		if !r.fault(faultSubgroupReorderIgnored) {
			node.children = list
		}
	}
	parent := ""
	if len(parents) == 1 {
		parent = parents[0]
	}
	// Fault subgroup-detach-ignored: a 9002 without a parent tag keeps the
	// group where it was.
	if parent == "" && r.fault(faultSubgroupDetachIgnored) {
		parent = node.parent
	}
	if parent != "" && parent != node.parent {
		if err := r.checkNewParent(t, ev, ch.UUID, parent); err != nil {
			return err
		}
	}
	prev := node.parent
	node.parent = parent
	if parent == prev && !hasTag(ev, "child") {
		return nil // nothing changed: no row to write
	}
	if err := t.saveTreeNode(ch.UUID, node); err != nil {
		return err
	}
	if parent == prev {
		return nil
	}
	// Fault subgroup-move-drops-history: the group's messages go with
	// its old place in the tree.
	if r.fault(faultSubgroupMoveDropsHistory) {
		if err := t.deleteWhere(condStateOfKind, kindChatMessage, ch.UUID); err != nil {
			return err
		}
	}
	if prev != "" {
		if err := r.updateChildren(t, prev, func(cs []string) []string {
			return slices.DeleteFunc(cs, func(c string) bool { return c == ch.UUID })
		}); err != nil {
			return err
		}
	}
	if parent != "" {
		return r.updateChildren(t, parent, func(cs []string) []string {
			if slices.Contains(cs, ch.UUID) {
				return cs
			}
			return append(cs, ch.UUID)
		})
	}
	return nil
}

// checkNewParent refuses a parent that is the group itself, does not exist,
// is one of the group's descendants, or that the author does not administer.
func (r *Relay) checkNewParent(t *txn, ev *nostr.Event, id, parent string) error {
	// Fault subgroup-cycle-accepted: no cycle check at all.
	cycles := !r.fault(faultSubgroupCycleAccepted)
	if cycles && parent == id {
		return reject("invalid", "a group cannot be its own parent")
	}
	pch, err := t.channel(parent)
	if err != nil {
		return err
	}
	// Fault subgroup-unknown-parent-accepted: any id may be a parent.
	// Fault subgroup-deleted-parent-accepted: a deleted group still exists.
	deleted := pch != nil && pch.Deleted && !r.fault(faultSubgroupDeletedParent)
	if (pch == nil || deleted) && !r.fault(faultSubgroupUnknownParent) {
		return reject("invalid", "parent group %s does not exist on this relay", text.Clip(parent, 64))
	}
	// Fault subgroup-parent-admin-unchecked: anyone may name any parent.
	if pch != nil && !mayModerate(pch.roleOf(ev.PubKey)) && !r.fault(faultSubgroupParentAdminUnchecked) {
		return reject("restricted", "only an admin of %s may make it this group's parent", text.Clip(parent, 64))
	}
	if !cycles {
		return nil
	}
	seen := map[string]bool{}
	for x := parent; x != ""; {
		if x == id {
			return reject("invalid", "making %s the parent of %s would create a cycle", text.Clip(parent, 64), text.Clip(id, 64))
		}
		if seen[x] {
			break
		}
		seen[x] = true
		n, err := t.treeNode(x)
		if err != nil {
			return err
		}
		x = n.parent
	}
	return nil
}

// updateChildren rewrites the child list of group id and republishes its
// state when it is live.
func (r *Relay) updateChildren(t *txn, id string, change func([]string) []string) error {
	n, err := t.treeNode(id)
	if err != nil {
		return err
	}
	n.children = change(n.children)
	if err := t.saveTreeNode(id, n); err != nil {
		return err
	}
	return r.republish(t, id)
}

// republish republishes the state of group id when it is live.
func (r *Relay) republish(t *txn, id string) error {
	ch, err := t.channel(id)
	if err != nil || ch == nil || ch.Deleted {
		return err
	}
	return r.publishState(t, ch)
}

// sameChildren checks that list names every current child exactly once
// and nothing else.
func sameChildren(list, children []string) error {
	for _, c := range children {
		if !slices.Contains(list, c) {
			return reject("invalid", "the child tags must list every child of the group; %s is missing", text.Clip(c, 64))
		}
	}
	for i, c := range list {
		if !slices.Contains(children, c) {
			return reject("invalid", "%s is not a child of this group", text.Clip(c, 64))
		}
		if slices.Contains(list[:i], c) {
			return reject("invalid", "child %s is listed twice", text.Clip(c, 64))
		}
	}
	return nil
}

// treeOnDelete runs when group ch is deleted: its children become roots
// and its own parent forgets it.
func (r *Relay) treeOnDelete(t *txn, ch *Channel) error {
	n, err := t.treeNode(ch.UUID)
	if err != nil {
		return err
	}
	// Fault subgroup-orphans-kept: the children keep their parent tag.
	if !r.fault(faultSubgroupOrphansKept) {
		for _, c := range n.children {
			cn, err := t.treeNode(c)
			if err != nil {
				return err
			}
			if cn.parent != ch.UUID {
				continue
			}
			cn.parent = ""
			if err := t.saveTreeNode(c, cn); err != nil {
				return err
			}
			if err := r.republish(t, c); err != nil {
				return err
			}
		}
		n.children = nil
	}
	if n.parent != "" {
		if err := r.updateChildren(t, n.parent, func(cs []string) []string {
			return slices.DeleteFunc(cs, func(c string) bool { return c == ch.UUID })
		}); err != nil {
			return err
		}
		n.parent = ""
	}
	return t.saveTreeNode(ch.UUID, n)
}

// inheritedRole is the fault subgroup-admin-inherited's role of pubkey in
// ch: its role in the nearest ancestor where it moderates.
func (r *Relay) inheritedRole(t *txn, ch *Channel, pubkey string) (string, error) {
	n, err := t.treeNode(ch.UUID)
	if err != nil {
		return "", err
	}
	for x, hops := n.parent, 0; x != "" && hops < 64; hops++ {
		pch, err := t.channel(x)
		if err != nil || pch == nil {
			return "", err
		}
		if role := pch.roleOf(pubkey); mayModerate(role) {
			return role, nil
		}
		pn, err := t.treeNode(x)
		if err != nil {
			return "", err
		}
		x = pn.parent
	}
	return "", nil
}
