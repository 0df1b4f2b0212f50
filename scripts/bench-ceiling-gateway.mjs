// The transaction ceiling reached as every endpoint is: through the platform's gateway
// (platform/gateway.mjs), in a node process of its own as the platform's is. `npm run bench` starts
// it in front of scripts/bench-ceiling.mjs, so an endpoint's ratio to this ceiling counts only what
// the endpoint does beyond the same path (docs/PERFORMANCE.md, "The API at national size").
//
//   CEILING_URL=http://127.0.0.1:<port> node scripts/bench-ceiling-gateway.mjs
//   -> prints CEILING_GATEWAY_READY <port>; GET /functions/v1/sql-tx answers the ceiling's /sql-tx
import { startGateway } from '../platform/gateway.mjs';

// Auth and Storage are not part of the ceiling: anything sent there is not found.
const absent = { fetch: async () => new Response(null, { status: 404 }) };
const gateway = await startGateway({ port: 0, auth: absent, storage: absent, functionsUrl: process.env.CEILING_URL });
console.log(`CEILING_GATEWAY_READY ${gateway.port}`);
process.on('SIGTERM', () => gateway.stop().then(() => process.exit(0)));
