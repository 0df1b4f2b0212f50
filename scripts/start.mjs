// `npm start`: installs what is missing, then runs the whole app on the embedded database.
import { ensureDependencies } from './ensure-deps.mjs';

ensureDependencies();
const { main } = await import('../platform/start.mjs');
await main();
