package runner

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nbd-wtf/go-nostr"

	"github.com/nipcl/nipcl-conform/fixtures"
	"github.com/nipcl/nipcl-conform/suites/framework"
)

// Detection is what profile detection saw.
type Detection struct {
	Profile string // identity, labels, or "" when behaviour matched neither
	Detail  string // one sentence: what the relay did
}

// DetectProfile tells the two NIP-CL lines apart by behaviour, since both
// advertise the same "nip-cl" string: it creates a stream channel with an
// identity-style label (["t", label]) and, if that is refused, one with a
// labels-style label (["label", label]), and reads the resulting 39000.
// Probe channels are deleted afterwards (9008). authURL, when set, is the
// URL signed into AUTH relay tags (the relay's own URL behind a proxy);
// header holds extra HTTP headers for the WebSocket upgrade (--header).
// pace, when set, is waited on before each of its writes (--rate: the
// detection writes count against the run's pacing like the cases').
func DetectProfile(ctx context.Context, url string, authOnConnect bool, step time.Duration, actor *fixtures.Actor, runID string, authURL string, header http.Header, pace func(context.Context) error) (Detection, error) {
	if actor == nil {
		actor = fixtures.NewActor("detector")
	}
	c, err := fixtures.Dial(ctx, url, fixtures.DialOptions{Actor: actor, StepTimeout: step, AuthOnConnect: authOnConnect, AuthRelayURL: authURL, Header: header})
	if err != nil {
		return Detection{}, fmt.Errorf("profile detection: %w", err)
	}
	defer c.Close()
	label := "nipcl-probe-" + runID

	read := func(ch string) (*nostr.Event, error) {
		r, err := c.Query(ctx, nostr.Filter{Kinds: []int{fixtures.KindMetadata}, Tags: nostr.TagMap{"d": {ch}}})
		if err != nil || len(r.Events) == 0 {
			return nil, err
		}
		return r.Events[0], nil
	}
	publish := func(ev *nostr.Event) (fixtures.OK, error) {
		if pace != nil {
			if err := pace(ctx); err != nil {
				return fixtures.OK{}, fmt.Errorf("pacing writes: %w", err)
			}
		}
		return c.Publish(ctx, ev)
	}
	cleanup := func(ch string) { _, _ = publish(fixtures.DeleteChannel(actor, ch)) }

	// Identity form: labels are extra t tags.
	spec := &fixtures.ChannelSpec{Name: label, Type: fixtures.TypeStream, Visibility: fixtures.Open, Extra: nostr.Tags{{"t", label}}}
	ok, err := publish(fixtures.CreateChannel(actor, spec))
	if err != nil {
		return Detection{}, fmt.Errorf("profile detection: %w", err)
	}
	if ok.Accepted {
		defer cleanup(spec.ID)
		meta, err := read(spec.ID)
		if err != nil {
			return Detection{}, fmt.Errorf("profile detection: %w", err)
		}
		if meta != nil {
			ts := fixtures.TagValues(meta, "t")
			if len(ts) >= 2 && ts[0] == fixtures.TypeStream && ts[1] == label && fixtures.HasTag(meta, "P") {
				return Detection{framework.ProfileIdentity, "a 9007 with [\"t\", label] was accepted and its 39000 carries t=type, t=label and P (identity line)"}, nil
			}
		}
	}
	identityAnswer := ok.String()

	// Labels form: label tags, NIP-32 L/l on the snapshot.
	spec2 := &fixtures.ChannelSpec{Name: label, Type: fixtures.TypeStream, Visibility: fixtures.Open, Extra: nostr.Tags{{"label", label}}}
	ok2, err := publish(fixtures.CreateChannel(actor, spec2))
	if err != nil {
		return Detection{}, fmt.Errorf("profile detection: %w", err)
	}
	if ok2.Accepted {
		defer cleanup(spec2.ID)
		meta, err := read(spec2.ID)
		if err != nil {
			return Detection{}, fmt.Errorf("profile detection: %w", err)
		}
		if meta != nil {
			for _, tg := range meta.Tags {
				if len(tg) >= 3 && tg[0] == "l" && tg[1] == label && tg[2] == "nip-cl" {
					return Detection{framework.ProfileLabels, "a 9007 with [\"label\", label] was accepted and its 39000 carries [\"l\", label, \"nip-cl\"] (labels line); the t-tag form was answered " + identityAnswer}, nil
				}
			}
		}
	}
	return Detection{"", fmt.Sprintf("neither label form showed up on the 39000 (t form: %s; label form: %s)", identityAnswer, strings.TrimSpace(ok2.String()))}, nil
}
