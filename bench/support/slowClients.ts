// A separate process holding `count` connections to a server, each sending one byte per second and never finishing:
// half trickle a request's headers, half trickle a JSON body. Prints "ready <n>" once all are open; a connection the
// server closes is replaced, so the load stays constant. Loopback only; stops by itself after `seconds`.
import { connect, type Socket } from "node:net"

const [url, countArg, secondsArg, token] = process.argv.slice(2)
const target = new URL(url!)
const count = Number(countArg)
const seconds = Number(secondsArg)
if (!["127.0.0.1", "localhost", "[::1]"].includes(target.hostname)) throw new Error("slow clients only target loopback")

const sockets = new Set<Socket>()
let opened = 0

const open = (index: number): Promise<void> =>
  new Promise((resolve) => {
    const socket = connect(Number(target.port), target.hostname)
    socket.setNoDelay(true)
    const body = index % 2 === 0
    const text = body
      ? `POST /api/games/engine HTTP/1.1\r\nhost: ${target.host}\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`
      : `GET /healthz HTTP/1.1\r\nhost: ${target.host}\r\nx-slow: `
    let sent = 0
    socket.on("connect", () => {
      opened++
      sockets.add(socket)
      // A JSON body starts with its headers at once (then trickles); a header trickle starts from the first byte.
      if (body) socket.write(text)
      else socket.write(text.slice(0, (sent = 1)))
      resolve()
    })
    const tick = setInterval(() => {
      if (!socket.writable) return
      socket.write(body ? " " : sent < text.length ? text[sent++]! : "a")
    }, 1000)
    socket.on("error", () => undefined)
    socket.on("data", () => undefined)
    socket.on("close", () => {
      clearInterval(tick)
      sockets.delete(socket)
      if (!stopping) void open(index)
    })
  })

let stopping = false
for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, j) => open(i + j)))
console.log(`ready ${opened}`)
setTimeout(() => {
  stopping = true
  for (const socket of sockets) socket.destroy()
  process.exit(0)
}, seconds * 1000)
