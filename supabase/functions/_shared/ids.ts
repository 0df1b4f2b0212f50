// The one pattern of a row id (a uuid, any case), for the schemas here and the function's path
// parameters (api/lib/params.ts).
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
