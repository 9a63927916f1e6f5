package framework

import (
	"slices"
	"testing"
)

// TestRoleChoice: the moderating role is the creator's whole role set, in
// the relay's order (NIP-29: "Each admin is listed along with one or more
// roles"), never its first role by position; a put role set is found in a
// 39001 entry as a set, beside any role the relay keeps.
func TestRoleChoice(t *testing.T) {
	for _, tc := range []struct {
		listed, want []string
	}{
		{[]string{"admin"}, []string{"admin"}},
		{[]string{"member", "admin"}, []string{"member", "admin"}},
		{[]string{"founder", "", "admin", "founder"}, []string{"founder", "admin"}},
		{[]string{""}, nil},
		{nil, nil},
	} {
		if got := RolesOf(tc.listed); !slices.Equal(got, tc.want) {
			t.Errorf("RolesOf(%q) = %q, want %q", tc.listed, got, tc.want)
		}
	}
	for _, tc := range []struct {
		listed, put []string
		want        bool
	}{
		{[]string{"member", "admin"}, []string{"member", "admin"}, true},
		{[]string{"admin", "member"}, []string{"member", "admin"}, true},
		{[]string{"member", "admin", "gardener"}, []string{"admin"}, true},
		{[]string{"member"}, []string{"member", "admin"}, false},
		{nil, []string{"admin"}, false},
		{[]string{"admin"}, nil, true},
	} {
		if got := HasRoles(tc.listed, tc.put); got != tc.want {
			t.Errorf("HasRoles(%q, %q) = %v, want %v", tc.listed, tc.put, got, tc.want)
		}
	}
	if got := RoleSet([]string{"member", "admin"}); got != `["member" "admin"]` {
		t.Errorf("RoleSet: %s", got)
	}
	if got := RoleSet(nil); got != "no role" {
		t.Errorf("RoleSet(nil): %s", got)
	}
}

// TestPutRolesRoleMap: --role-map admin= comes first, one role; the
// drafts' profiles put the role word itself, and "member" is no role at
// all the NIP-29 way.
func TestPutRolesRoleMap(t *testing.T) {
	mapped := &T{Case: Case{ID: "base/x/1", Profile: ProfileBaseline}, Env: &Env{RoleMap: map[string]string{"admin": "moderator"}}}
	if got := mapped.ModeratorRoles(nil, "g"); !slices.Equal(got, []string{"moderator"}) {
		t.Errorf("ModeratorRoles with --role-map admin=moderator: %q", got)
	}
	if got := mapped.PutRoles(nil, "g", "admin"); !slices.Equal(got, []string{"moderator"}) {
		t.Errorf("PutRoles admin with --role-map admin=moderator: %q", got)
	}
	if got := mapped.PutRoles(nil, "g", "member"); got != nil {
		t.Errorf("PutRoles member, NIP-29 way: %q, want none", got)
	}
	draft := &T{Case: Case{ID: "labels/x/1", Profile: "labels"}, Env: &Env{}}
	if got := draft.PutRoles(nil, "g", "admin"); !slices.Equal(got, []string{"admin"}) {
		t.Errorf("PutRoles admin, labels profile: %q", got)
	}
}
