// A TCP proxy that a test puts between a client and the database, then cuts and restores: the
// database becomes unreachable exactly as it would if its host went away (open connections are
// reset, new ones refused), and comes back on the same address. Runs under Node and Deno.
//
//   const proxy = await startFaultProxy({ target: 'postgresql://postgres:postgres@127.0.0.1:5432/db' });
//   proxy.url        // the same URL with the proxy's host and port
//   proxy.cut()      // resets every open connection and refuses new ones
//   proxy.restore()  // accepts again
//   await proxy.close()
import net from 'node:net';

/**
 * @param {{ target: string, host?: string, port?: number }} options target: a postgres URL
 * @returns {Promise<{ url: string, port: number, connections: () => number, accepted: () => number,
 *   cut: () => void, restore: () => void, close: () => Promise<void> }>}
 */
export async function startFaultProxy({ target, host = '127.0.0.1', port = 0 }) {
  const upstream = new URL(target);
  const upstreamHost = upstream.hostname.replace(/^\[|\]$/g, '');
  const upstreamPort = Number(upstream.port || 5432);
  const open = new Set();
  let down = false;
  let accepted = 0;

  const server = net.createServer((client) => {
    if (down) {
      // The reset can surface as ECONNRESET on this socket too: nobody else listens to it.
      client.on('error', () => {});
      if (client.resetAndDestroy) client.resetAndDestroy();
      else client.destroy();
      return;
    }
    accepted += 1;
    const server = net.connect({ host: upstreamHost, port: upstreamPort });
    const pair = { client, server };
    open.add(pair);
    const end = () => {
      open.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('error', end);
    server.on('error', end);
    client.on('close', end);
    server.on('close', end);
    client.pipe(server);
    server.pipe(client);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address();
  const listenPort = typeof address === 'object' && address ? address.port : port;
  const url = new URL(target);
  url.hostname = host;
  url.port = String(listenPort);

  return {
    url: url.toString(),
    port: listenPort,
    connections: () => open.size,
    accepted: () => accepted,
    cut() {
      down = true;
      for (const { client, server } of open) {
        // A reset, not a polite FIN: what a client sees when the database host goes away.
        if (client.resetAndDestroy) client.resetAndDestroy();
        else client.destroy();
        server.destroy();
      }
      open.clear();
    },
    restore() {
      down = false;
    },
    close() {
      this.cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

// `node scripts/fault-proxy.mjs <postgres url> [port]`: a proxy by hand; type `cut`, `restore` or `quit`.
if (typeof process !== 'undefined' && process.argv?.[1]?.endsWith('fault-proxy.mjs') && !('Deno' in globalThis)) {
  const [target, port] = process.argv.slice(2);
  if (!target) {
    console.error('usage: node scripts/fault-proxy.mjs <postgres url> [port]');
    process.exit(2);
  }
  const proxy = await startFaultProxy({ target, port: Number(port ?? 0) });
  console.log(`proxy: ${proxy.url}  (type cut, restore or quit)`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', async (line) => {
    const command = line.trim();
    if (command === 'cut') proxy.cut();
    else if (command === 'restore') proxy.restore();
    else if (command === 'quit') {
      await proxy.close();
      process.exit(0);
    }
    console.log(`${command}: ${proxy.connections()} open, ${proxy.accepted()} accepted`);
  });
}
