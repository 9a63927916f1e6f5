// nipcl-conform client-mode adapter (protocol 3) for @nostr-dev-kit/ndk
// 3.0.3 (NDKSimpleGroup). The library decides: NDKSimpleGroup fetches and
// keeps the group's metadata and member list, NDKEvent.publish sends
// commands. The adapter only translates (see loop.mjs for how it reads a
// library error). It keeps one NDK per relay and one NDKSimpleGroup per
// group across the intents of a case, as an app holding a group view would.
import { serve, outcomeOf, lazy } from './loop.mjs'

// The library is loaded by the first intent that needs it (loop.mjs lazy).
let NDK, NDKEvent, NDKRelaySet, NDKSimpleGroup, signer, pk, secret
const library = lazy(async () => {
  const m = await import('@nostr-dev-kit/ndk')
  ;({ NDKEvent, NDKRelaySet, NDKSimpleGroup } = m)
  NDK = m.default
  signer = new m.NDKPrivateKeySigner(secret)
  pk = (await signer.user()).pubkey
})
const ndks = new Map()
const groups = new Map()

async function open(relay) {
  if (!ndks.has(relay)) {
    const ndk = new NDK({ explicitRelayUrls: [relay], signer })
    // Not awaited: NDK's fetches and publishes wait for the relay
    // themselves, and ndk.connect() would wait out its whole timeout here,
    // since NDK does not count a relay that sent an AUTH challenge as
    // connected.
    ndk.connect(5000)
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

// NDKSimpleGroup has methods for create-group and join only; the other
// commands are plain NDKEvents with the h tag (and p for remove-user),
// published to the group's relay set as NDKSimpleGroup does.
const plain = {
  leave: i => ({ kind: 9022, tags: [['h', i.group]] }),
  post: i => ({ kind: 9, content: i.content ?? '', tags: [['h', i.group]] }),
  'remove-user': i => ({ kind: 9001, tags: [['h', i.group], ['p', i.user]] }),
  'add-label': i => ({ kind: 9002, tags: [['h', i.channel], ['add-label', i.label]] }),
  create: i => ({ kind: 9007, tags: [['h', i.channel], ['label', i.label]] }),
}

async function command(i) {
  const g = await group({ ...i, group: i.group ?? i.channel })
  try {
    switch (i.op) {
      case 'create-group': await g.createGroup(); break
      case 'join': await g.requestToJoin(undefined, ''); break // NDK takes no invite code
      default: await new NDKEvent(g.ndk, { content: '', ...plain[i.op](i) }).publish(g.relaySet)
    }
    return { outcome: 'committed', evidence: 'publish resolved' }
  } catch (e) {
    // NDKPublishError carries the per-relay errors; NDK reports a dropped
    // connection as a failed publish ("Not enough relays received the
    // event", or an authentication failure), which is no OK false.
    return outcomeOf(e, [...(e?.errors?.values?.() ?? [])].map(x => String(x?.message ?? x)))
  }
}

// NDK never asks for 39001 or 39003 (NDKSimpleGroup.admins reads an
// adminList nothing fills) and has no restricted, hidden, parent,
// children or pins: those fields are unsupported.
const unread = { admins: 'unsupported', 'admin-roles': 'unsupported', roles: 'unsupported', restricted: 'unsupported',
  hidden: 'unsupported', parent: 'unsupported', children: 'unsupported', pins: 'unsupported' }

async function readGroup(i) {
  const g = await group(i)
  const meta = await g.getMetadata()
  if (!meta?.created_at) return { evidence: 'NDKSimpleGroup found no metadata event' }
  const members = await g.getMemberListEvent()
  const fields = { ...unread }
  if (!members) fields.members = 'unknown' // no 39002 fetched: NDK holds no member list
  // NDK's scope getter answers "public" or undefined (it looks for a
  // public tag twice), so private shows what NDK says: never true.
  const view = { name: meta.name, private: meta.scope === 'private', closed: meta.access === 'closed', members: members?.members }
  return { known: true, group: view, fields, evidence: { signer: meta.pubkey, scope: meta.scope ?? null, access: meta.access ?? null } }
}

// amMember answers from NDK's member list (the 39002): NDK has no other
// notion of membership and never reads kinds 9000/9001.
async function amMember(i) {
  const g = await group(i)
  const members = await g.getMemberListEvent()
  if (!members) return { evidence: 'NDKSimpleGroup.getMemberListEvent found no 39002' }
  return { known: true, member: members.members.includes(pk), evidence: `${members.members.length} member(s) in the 39002` }
}

// readMessages shows the group's kind 9 messages as NDK.fetchEvents
// returns them: NDK has no check of previous references.
async function readMessages(i) {
  const { ndk, set } = await open(i.relay)
  const evs = await ndk.fetchEvents({ kinds: [9], '#h': [i.group] }, { closeOnEose: true }, set)
  return { messages: [...evs].map(e => e.id), evidence: 'NDK 3.0.3 has no previous-reference check: every message is shown' }
}

serve(async i => {
  switch (i.op) {
    case 'init':
      secret = i.secret
      return { protocol: 3, evidence: '@nostr-dev-kit/ndk 3.0.3 (NDKSimpleGroup)' }
    case 'create-group': case 'join': case 'leave': case 'post': case 'remove-user': case 'add-label': case 'create':
      await library()
      return command(i)
    case 'read-group':
      await library()
      return readGroup(i)
    case 'am-member':
      await library()
      return amMember(i)
    case 'read-messages':
      await library()
      return readMessages(i)
    default: // read-labels, find, ensure, read-channel, locate-group
      return { unsupported: `NDK 3.0.3 has no API for ${i.op}` }
  }
})
