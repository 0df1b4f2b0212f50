// This platform's credential URLs from the function's configuration: the API's public base (the
// project URL's /functions/v1/api) and the web site (SITE_URL, else the project URL).
import type { Config } from '../config.ts';
import type { Urls } from './issuer.ts';

export function credentialUrls(config: Config): Urls {
  return {
    apiBase: `${config.supabaseUrl}/functions/v1/api`,
    siteUrl: (Deno.env.get('SITE_URL') || config.supabaseUrl).replace(/\/+$/, ''),
  };
}
