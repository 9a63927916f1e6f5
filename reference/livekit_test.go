package reference

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/nbd-wtf/go-nostr"
)

func init() { maps.Copy(faultProbes, livekitProbes) }

// httpBase turns the relay's ws:// URL into http://.
func httpBase(url string) string { return "http" + strings.TrimPrefix(url, "ws") }

// livekitGet returns the status of GET /.well-known/nip29/livekit.
func livekitGet(t *testing.T, url string) int {
	resp, err := http.Get(httpBase(url) + livekitPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// livekitToken posts a NIP-98-authorized token request for group as a;
// u overrides the u tag when not empty.
func livekitToken(t *testing.T, url string, a actor, group, u string) (int, map[string]any) {
	target := httpBase(url) + livekitPath + "/" + group
	if u == "" {
		u = target
	}
	auth := a.event(t, 27235, nostr.Tags{{"u", u}, {"method", "POST"}}, "", 0)
	raw, _ := json.Marshal(auth)
	req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader("{}"))
	req.Header.Set("Authorization", "Nostr "+base64.StdEncoding.EncodeToString(raw))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	if tok, ok := body["participant_token"].(string); ok {
		parts := strings.Split(tok, ".")
		payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
		var claims map[string]any
		_ = json.Unmarshal(payload, &claims)
		return resp.StatusCode, claims
	}
	return resp.StatusCode, nil
}

// avGroup creates a group (private when asked) owned by a fresh key.
func avGroup(t *testing.T, url string, private bool) (actor, string) {
	owner := newActor(t)
	c := dial(t, url)
	c.auth(owner)
	id := "av-" + newChannelID()[:8]
	c.mustPublish(owner.bare(t, id))
	if private {
		c.mustPublish(owner.edit(t, id, nostr.Tag{"private"}))
	}
	return owner, id
}

var livekitProbes = map[FaultName]faultProbe{
	faultLiveKitStatus200: func(t *testing.T, r *Relay, url string) bool {
		return livekitGet(t, url) != http.StatusNoContent
	},
	faultLiveKitSubUppercase: func(t *testing.T, r *Relay, url string) bool {
		owner, id := avGroup(t, url, false)
		_, claims := livekitToken(t, url, owner, id, "")
		sub, _ := claims["sub"].(string)
		return !strings.HasPrefix(sub, owner.pk)
	},
	faultLiveKitParticipantsUppercase: func(t *testing.T, r *Relay, url string) bool {
		owner, id := avGroup(t, url, false)
		livekitToken(t, url, owner, id, "")
		c := dial(t, url)
		c.auth(owner)
		ev := c.state(kindGroupParticipants, id)
		return ev != nil && strings.Contains(ev.String(), strings.ToUpper(owner.pk))
	},
	faultLiveKitSubNoSuffix: func(t *testing.T, r *Relay, url string) bool {
		owner, id := avGroup(t, url, false)
		_, first := livekitToken(t, url, owner, id, "")
		_, second := livekitToken(t, url, owner, id, "")
		return first["sub"] == second["sub"]
	},
	faultLiveKitAccessUnchecked: func(t *testing.T, r *Relay, url string) bool {
		_, id := avGroup(t, url, true)
		status, _ := livekitToken(t, url, newActor(t), id, "")
		return status == http.StatusCreated
	},
}

// TestLiveKit: 204 at the well-known path; a NIP-98-authorized token with
// sub = pubkey-suffix; 401 for a bad u tag; 403 for a private group's
// outsider; 404 for an unknown group; the no-livekit policy turns it off.
func TestLiveKit(t *testing.T) {
	_, url := startRelay(t, Config{Profile: "nip29"})
	if got := livekitGet(t, url); got != http.StatusNoContent {
		t.Fatalf("status path: %d", got)
	}
	owner, id := avGroup(t, url, true)
	status, claims := livekitToken(t, url, owner, id, "")
	if sub, _ := claims["sub"].(string); status != http.StatusCreated || len(sub) != 64+1+16 || sub[:64] != owner.pk {
		t.Fatalf("owner's token: %d %v", status, claims)
	}
	if status, _ := livekitToken(t, url, owner, id, httpBase(url)+livekitPath+"/other"); status != http.StatusUnauthorized {
		t.Fatalf("wrong u tag: %d", status)
	}
	if status, _ := livekitToken(t, url, newActor(t), id, ""); status != http.StatusForbidden {
		t.Fatalf("outsider of a private group: %d", status)
	}
	if status, _ := livekitToken(t, url, owner, "no-such-group", ""); status != http.StatusNotFound {
		t.Fatalf("unknown group: %d", status)
	}
	_, off := startRelay(t, Config{Profile: "nip29", Policies: []string{policyNoLiveKit}})
	if got := livekitGet(t, off); got != http.StatusNotFound {
		t.Fatalf("no-livekit status path: %d", got)
	}
}
