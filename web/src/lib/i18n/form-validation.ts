// A form's validation by a shared schema (@shared/*.ts, the same the API checks with), its messages in
// the reader's language: the schema's messages are the API's English, which the messages catalogue
// translates (lib/i18n/messages.ts). The catalogue starts loading when the form is made, long before
// it is first submitted.
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { loadMessages, translateMessage } from './messages';

type Resolver = ReturnType<typeof zod4Resolver>;

export function translatedResolver(...args: Parameters<typeof zod4Resolver>): Resolver {
  void loadMessages();
  const resolve = zod4Resolver(...args);
  return ((values: Parameters<Resolver>[0]) => {
    const errors = resolve(values);
    return Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, typeof message === 'string' ? translateMessage(message) : message]));
  }) as Resolver;
}
