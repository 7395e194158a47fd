// Vitest setup: the window's tests read English. Messages compile from their ids at run time, so
// tests never depend on `npm run i18n:compile` having run (the catalogs are build output).
import { i18n } from "@lingui/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";

i18n.setMessagesCompiler(compileMessage);
i18n.loadAndActivate({ locale: "en", messages: {} });
