/** The "Audit a run" page script, its worker (readers and audit) inlined (see src/site/page-script.ts). */
import { pageScript } from '../site/page-script.ts';

export const auditScript = (root = process.cwd()): Promise<string> => pageScript('audit-page', '__AUDIT_WORKER__', root);
