/** The explorer's page script, its worker inlined (see src/site/page-script.ts). */
import { pageScript } from '../site/page-script.ts';

export const explorerScript = (root = process.cwd()): Promise<string> => pageScript('explorer', '__EXPLORER_WORKER__', root);
