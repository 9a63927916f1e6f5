// nipcl-conform client-mode adapter for @nostr-dev-kit/ndk 3.0.3
// (NDKSimpleGroup). The library decides: NDKSimpleGroup fetches and keeps
// the group's metadata and member list, NDKEvent.publish sends commands.
// The adapter only translates (see loop.mjs for its one decision). It
// keeps one NDK per relay and one NDKSimpleGroup per group across the
// intents of a case, as an app holding a group view would.
import NDK, { NDKEvent, NDKPrivateKeySigner, NDKRelaySet, NDKSimpleGroup } from '@nostr-dev-kit/ndk'
import { serve, okRefusal } from './loop.mjs'

let signer
const ndks = new Map()
const groups = new Map()

async function open(relay) {
  if (!ndks.has(relay)) {
    const ndk = new NDK({ explicitRelayUrls: [relay], signer })
    await ndk.connect(5000)
    ndks.set(relay, ndk)
  }
  const ndk = ndks.get(relay)
  return { ndk, set: NDKRelaySet.fromRelayUrls([relay], ndk) }
}

async function group(i) {
  const key = i.relay + ' ' + i.group
  if (!groups.has(key)) {
    const { ndk, set } = await open(i.relay)
    groups.set(key, new NDKSimpleGroup(ndk, set, i.group))
  }
  return groups.get(key)
}

async function command(i) {
  const g = await group(i)
  try {
    switch (i.op) {
      case 'create-group': await g.createGroup(); break
      case 'join': await g.requestToJoin(undefined, ''); break // NDK takes no invite code
      default: { // leave and post: NDKSimpleGroup has no method; a plain NDKEvent with h
        const ev = new NDKEvent(g.ndk, { kind: i.op === 'leave' ? 9022 : 9, content: i.content ?? '', tags: [['h', i.group]] })
        await ev.publish(g.relaySet)
      }
    }
    return { outcome: 'committed' }
  } catch (e) {
    const msgs = [...(e?.errors?.values?.() ?? [])].map(x => String(x?.message ?? x))
    return { outcome: msgs.some(okRefusal) ? 'rejected' : 'unknown', evidence: [String(e?.message ?? e), ...msgs] }
  }
}

async function readGroup(i) {
  const g = await group(i)
  const meta = await g.getMetadata()
  if (!meta?.id) return { evidence: 'NDKSimpleGroup found no metadata event' }
  const members = await g.getMemberListEvent()
  const view = {
    name: meta.name, private: meta.scope === 'private', closed: meta.access === 'closed',
    members: members?.members, admins: g.admins.map(pubkey => ({ pubkey })),
  }
  return { known: true, group: view, evidence: { signer: meta.pubkey, scope: meta.scope ?? null, access: meta.access ?? null } }
}

serve(async i => {
  switch (i.op) {
    case 'init':
      signer = new NDKPrivateKeySigner(i.secret)
      return { protocol: 2, evidence: '@nostr-dev-kit/ndk 3.0.3 (NDKSimpleGroup)' }
    case 'create-group': case 'join': case 'leave': case 'post':
      return command(i)
    case 'read-group':
      return readGroup(i)
    default:
      return { unsupported: `NDK 3.0.3 has no API for ${i.op}` }
  }
})
