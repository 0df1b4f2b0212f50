// `npm start`: installs what is missing, then runs the whole app on the embedded database.
import { ensureDependencies } from './ensure-deps.mjs';

ensureDependencies();
// The demo organisations with the demo accounts orgadmin and manager, on a new database.
process.env.DEMO_ORGANISATIONS ??= '1';
const { main } = await import('../platform/start.mjs');
await main();
