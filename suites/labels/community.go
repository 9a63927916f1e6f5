package labels

import (
	"fmt"
	"strings"

	"github.com/nbd-wtf/go-nostr"
	. "github.com/onsi/ginkgo/v2" //nolint:revive // Ginkgo DSL
	. "github.com/onsi/gomega"    //nolint:revive // Gomega DSL

	"github.com/nipcl/nipcl-conform/clause"
	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// communitySpecs are the cases of labels/community.
func communitySpecs() []framework.Spec {
	out := []framework.Spec{
		{Case: framework.NewCase("labels/community/4", framework.MUST,
			"A 9002 committed in one community and replayed in another never recovers the first community's evidence, even where the other community has a channel with the same UUID and the same owner: it is a new application there (OK true \"\") or refused, never duplicate: nip-cl-committed.",
			"labels/community.2").
			WithReading("Where the second community refuses the UUID (reading labels-uuid-across-communities \"refused\"), the replayed 9002 names a channel the community does not have and may be refused in any form community admission uses; each outcome is noted."),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				b, signer, _ := secondCommunity(t, owner)
				a := t.Connect(owner)
				x := lbl(t, "replayed")
				ch := createLabeled(t, a, "", fixtures.Open)
				m := mutationEv(owner, ch, []string{x}, nil)
				acceptNew(t, a, m, "mutation in community A")
				okB := t.Publish(b, fixtures.CreateChannel(signer, &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "same uuid in b"}))
				sameUUID := okB.Accepted
				t.Note("creating the same UUID in community B: %s", okB)
				ok := t.Publish(b, m)
				t.Expect(hasFixedPrefix(ok.Reason, markCommitted)).To(BeFalse(), "community B answered the replayed 9002 with A's evidence: %s", ok)
				switch {
				case ok.Accepted:
					t.Expect(ok.Reason).To(Equal(""), "a new application in B answers OK true \"\": %s", ok)
					t.Expect(sameUUID).To(BeTrue(), "community B acknowledged a mutation of a channel it does not have: %s", ok)
					expectLabels(t, b, ch, x)
					t.Note("community B applied the replayed 9002 to its own channel")
				default:
					otherCommunityRefusal(t, ok, "the replayed 9002 in community B")
					t.Note("community B refused the replayed 9002: %s", ok.Reason)
					if sameUUID {
						expectLabels(t, b, ch)
					}
				}
				acceptCommitted(t, a, m, "exact retry in community A")
				expectLabels(t, a, ch, x)
			}},
		{Case: framework.NewCase("labels/community/5", framework.MUST,
			"NIP-45 COUNT from a second community does not count the first community's labeled snapshots: with one channel labeled x in each community, COUNT {\"kinds\":[39000],\"#L\":[\"nip-cl\"],\"#l\":[x]} is 1 in each (0 in the second would be no count at all, 2 a leak).",
			"labels/community.1"),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				x := lbl(t, "counted")
				b, _, _ := secondCommunity(t, owner, x)
				a := t.Connect(owner)
				createLabeled(t, a, "", fixtures.Open, x)
				f := nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"L": {labelNS}, "l": {x}}}
				t.ExpectCount(a, 1, fmt.Sprintf("COUNT in the first community, which holds one channel labeled %s (the second community holds the other)", x), f)
				t.ExpectCount(b, 1, fmt.Sprintf("COUNT from the second community (%s), which holds its own channel labeled %s: it must count that one and not the first community's", t.Env.Hosts[0], x), f)
			}},
	}
	// "Authorization and visibility: community scope".
	out = append(out, []framework.Spec{
		{Case: framework.NewCase("labels/community/1", framework.MUST,
			"Labels set in one community (Host) are not visible from another: #L/#l and #d find nothing there, and a mutation sent there is refused.",
			"labels/community.1", "labels/authorization.9").
			WithReading("Reads in the other community may come back empty or be refused (CLOSED); the mutation may be refused with nip-cl-rejected (invalid: or restricted:), an ordinary NIP-01 refusal from community admission, or a closed connection. Each form is noted."),
			Run: func(t *framework.T) {
				t.Checking("labels/community.1")
				owner := t.Actor("owner")
				b, signer, _ := secondCommunity(t, owner)
				a := t.Connect(owner)
				x := lbl(t, "tenant")
				ch := createLabeled(t, a, "", fixtures.Open, x)
				t.Note("#L+#l from the other community: %s", absentL(t, b, []string{x}, nil, "#L+#l from the other community"))
				t.Note("#d from the other community: %s", t.QueryAbsent(b, "#d from the other community", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}))
				t.Note("mutation of the other community's channel: %s", admissionRefusal(t, b, mutationEv(signer, ch, []string{lbl(t, "y")}, nil),
					"mutation of the other community's channel", []string{"invalid", "restricted"}, nil))
				expectLabels(t, a, ch, x)
			}},
		{Case: framework.NewCase("labels/community/2", framework.MUST,
			"A channel UUID used in one community never carries that community's labels into another: a create of the same UUID there is either a separate channel with its own label set, or refused without disclosing anything of the first.",
			"labels/community.1").
			WithReading("The draft scopes label state, evidence and delivery to the community but does not say whether a UUID used in one community may be created in another. Both readings are accepted and noted: OK true \"\" with an independent channel, or a refusal that names neither the first channel's labels nor its name: nip-cl-rejected (e.g. duplicate: for a UUID the relay treats as taken) or an ordinary NIP-01 refusal from community admission."),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				b, signer, _ := secondCommunity(t, owner)
				a := t.Connect(owner)
				x, y := lbl(t, "in-a"), lbl(t, "in-b")
				evA, ch := createEv(owner, "", fixtures.Open, x)
				acceptNew(t, a, evA, "create in community A")
				evB := fixtures.CreateChannel(signer, &fixtures.ChannelSpec{ID: ch, Type: fixtures.TypeStream, Name: "in b", Extra: labelTags(y)})
				ok := t.Publish(b, evB)
				if !ok.Accepted {
					otherCommunityRefusal(t, ok, "the same UUID created in community B")
					t.Expect(ok.Reason).NotTo(ContainSubstring(x), "the refusal in B discloses A's label")
					t.Expect(ok.Reason).NotTo(ContainSubstring("labels stream"), "the refusal in B discloses A's channel name")
					t.Note("community B refused the UUID community A uses: %s (UUIDs are not reusable across communities on this relay)", ok.Reason)
					t.Reading(clause.ReadingLabelsUUIDAcross, "refused")
					t.Note("#d from community B: %s", t.QueryAbsent(b, "#d of A's channel from community B", nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}}))
					t.Note("#L+#l from community B: %s", absentL(t, b, []string{x}, nil, "A's label from community B"))
					expectLabels(t, a, ch, x)
					return
				}
				t.Expect(ok.Reason).To(Equal(""), "a new create in B answers OK true \"\": %s", ok)
				t.Note("community B created its own channel on the UUID community A uses")
				t.Reading(clause.ReadingLabelsUUIDAcross, "separate")
				expectLabels(t, b, ch, y)
				expectLabels(t, a, ch, x)
				t.Expect(findL(t, b, []string{x}, nil, 50)).To(BeEmpty(), "A's label from B")
				t.Expect(findL(t, a, []string{y}, nil, 50)).To(BeEmpty(), "B's label from A")
				acceptNew(t, b, mutationEv(signer, ch, []string{x}, nil), "add A's value in B")
				expectLabels(t, a, ch, x)
				expectLabels(t, b, ch, x, y)
			}},
		{Case: framework.NewCase("labels/community/3", framework.MUST,
			"The same signed 9007 submitted in another community does not recover the first community's evidence: it is never answered duplicate: nip-cl-committed there.",
			"labels/community.2").
			WithReading("Submitted in another community, the event is a new command there: OK true \"\" with its own channel, or a refusal if that community refuses it (nip-cl-rejected, or an ordinary NIP-01 refusal from community admission); each is accepted and noted. Never duplicate: nip-cl-committed."),
			Run: func(t *framework.T) {
				owner := t.Actor("owner")
				b, _, _ := secondCommunity(t, owner)
				a := t.Connect(owner)
				x := lbl(t, "evidence")
				ev, ch := createEv(owner, "", fixtures.Open, x)
				acceptNew(t, a, ev, "create in community A")
				ok := t.Publish(b, ev)
				t.Expect(hasFixedPrefix(ok.Reason, markCommitted)).To(BeFalse(), "community B answered with A's evidence: %s", ok)
				if ok.Accepted {
					t.Expect(ok.Reason).To(Equal(""), "a new application in B answers OK true \"\": %s", ok)
					expectLabels(t, b, ch, x)
					t.Note("community B applied the event as a new command")
				} else {
					otherCommunityRefusal(t, ok, "the same event in community B")
					t.Note("community B rejected the event: %s", ok.Reason)
				}
				acceptCommitted(t, a, ev, "exact retry in community A")
			}},
	}...)
	return out
}

const needHost = "community isolation needs a second Host of the same relay (--host)"

// secondCommunity opens the second community (the first --host) as the
// key the harness signs with there (--host-key, else owner) and first
// observes that the community admits that key: a fresh channel the key
// creates there, with labels, must be accepted. That control keeps every
// refusal the case sees in the second community about isolation, never
// about admission. A refusal blocks the case on the host-key precondition
// (no sentence makes a community admit a key); an answer other than the
// new-application OK true "" fails as any create does.
func secondCommunity(t *framework.T, owner *fixtures.Actor, labels ...string) (b *fixtures.Client, signer *fixtures.Actor, control string) {
	GinkgoHelper()
	if len(t.Env.Hosts) == 0 {
		t.Unsupported(needHost)
	}
	host := t.Env.Hosts[0]
	signer = t.HostActor(host, owner)
	b = t.ConnectHost(signer, host)
	ev, control := createEv(signer, "", fixtures.Open, labels...)
	ok := t.Publish(b, ev)
	if !ok.Accepted {
		framework.CheckPrefix("OK", ok.Reason)
		t.RefusedWrite(framework.PreHostKey, ok, fmt.Sprintf("a fresh channel created in community %s with key %s", host, signer.PubKey))
	}
	if ok.Reason != "" {
		framework.Failf(`the control create in community %s: expected ["OK",…,true,""] (new committed application), got %s`, host, ok)
	}
	if signer != owner {
		t.Note("community %s: the harness signs with the --host-key key %s there", host, signer.PubKey)
	}
	return b, signer, control
}

// otherCommunityRefusal checks a refusal in the second community: a
// nip-cl-rejected answer with any of the draft's prefixes, or an ordinary
// NIP-01 refusal (community admission may be decided before command
// handling). A committed or unknown outcome would rest on evidence of the
// first community.
func otherCommunityRefusal(t *framework.T, ok fixtures.OK, why string) {
	GinkgoHelper()
	framework.CheckPrefix("OK", ok.Reason)
	switch {
	case strings.Contains(ok.Reason, markRejected):
		requireRejected(t, ok, why, "invalid", "restricted", "duplicate", "auth-required", "rate-limited", "error")
	case strings.Contains(ok.Reason, "nip-cl-"):
		framework.Failf("%s: another community's refusal may not carry %s (only nip-cl-rejected, or an ordinary NIP-01 refusal)", why, ok)
	}
}
