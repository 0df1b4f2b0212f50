// Regenerates supabase/functions/_shared/common-passwords.txt: the common passwords that the api
// function refuses when a password is chosen (registration, password change). Source: zxcvbn-ts's
// 'passwords-common' dictionary (ranked by frequency in leaked password sets); only entries of 6 to
// 72 characters are kept, because shorter or longer ones are refused by length already.
// Run: node scripts/common-passwords.mjs
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dictionary } from '@zxcvbn-ts/language-common';

const MIN = 6;
const MAX = 72;
const target = fileURLToPath(new URL('../supabase/functions/_shared/common-passwords.txt', import.meta.url));
const seen = new Set();
for (const entry of dictionary['passwords-common']) {
  const word = String(entry).toLowerCase();
  if (word.length >= MIN && word.length <= MAX && !/[\r\n]/.test(word)) seen.add(word);
}
writeFileSync(target, [...seen].join('\n') + '\n');
console.log(`${seen.size} common passwords written to ${target}`);
