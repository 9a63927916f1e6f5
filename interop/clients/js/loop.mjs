// The JSON-lines loop of the nipcl-conform adapter protocol (v3,
// docs/client-mode.md), shared by the JavaScript adapters: one intent a
// line in, one answer a line out, intents handled one at a time. An
// exception becomes an "error" answer (a harness error: the adapter broke).
import { createInterface } from 'node:readline'

// lazy loads an adapter's library the first time an intent needs it: a
// case whose intents the library has no API for (answered unsupported)
// then costs the adapter process's start, not the library's loading
// (BENCHMARKS.md, "Client mode"). load runs once, after ws is the global
// WebSocket (Node 20 has none; the libraries look for one).
export function lazy(load) {
  let p
  return () => (p ??= import('ws').then(({ default: WebSocket }) => {
    globalThis.WebSocket ??= WebSocket
    return load()
  }))
}

export function serve(handle) {
  const rl = createInterface({ input: process.stdin })
  let chain = Promise.resolve()
  rl.on('line', line => {
    chain = chain.then(async () => {
      const intent = JSON.parse(line)
      let answer
      try {
        answer = { id: intent.id, ...(await handle(intent)) }
      } catch (e) {
        answer = { id: intent.id, error: String(e?.stack || e) }
      }
      process.stdout.write(JSON.stringify(answer) + '\n')
    })
  })
  rl.on('close', () => chain.then(() => process.exit(0)))
}

// okRefusal: the adapter's own reading of a library error, since no
// library says whether an error came from an OK false: a message in
// NIP-01's "prefix: text" form is the relay's refusal; anything else
// (timeout, closed connection, failed AUTH) leaves the outcome unknown.
export const okRefusal = msg => /^[a-z-]+: /.test(String(msg))

// outcomeOf maps a publish error to an outcome with the error as evidence.
export const outcomeOf = (e, msgs = []) => {
  const all = [String(e?.message ?? e), ...msgs]
  return { outcome: all.some(okRefusal) ? 'rejected' : 'unknown', evidence: all }
}

// wait is how long the harness's reference client waits for an OK before
// it counts an attempt as Unknown (NIPCL_CLIENT_WAIT_MS, from
// --reference-wait; 3 s by default): the adapters set their library's own
// publish timeout to it where the library has that option, so a withheld
// OK costs what it costs the reference client, not the library's default.
export const wait = Number(process.env.NIPCL_CLIENT_WAIT_MS) || 3000
