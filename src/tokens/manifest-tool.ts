/**
 * Fills or checks the computed fields of tokenizers/manifest.json and
 * corpora/manifest.json (hashes, sizes, file lists, vocabulary sizes) from what
 * npm ci installed. Hand-written fields (names, licences, notes) are kept.
 *
 *   npx tsx src/tokens/manifest-tool.ts           # check: exit 1 and list differences
 *   npx tsx src/tokens/manifest-tool.ts --write   # rewrite the computed fields
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic.ts';
import { sha256 } from '../fs/hash.ts';
import { openTokenizer } from './adapters.ts';
import { scanCorpus } from './corpora.ts';
import {
  CORPUS_MANIFEST,
  TOKENIZER_MANIFEST,
  packageDir,
  readCorpusManifest,
  readTokenizerManifest,
  type PinnedFile,
  type TokenizerEntry,
} from './manifest.ts';

function pin(dir: string, file: PinnedFile): PinnedFile {
  const bytes = readFileSync(join(dir, file.path));
  return { path: file.path, sha256: sha256(bytes), bytes: bytes.length };
}

function installedVersion(root: string, pkg: string): string {
  return JSON.parse(readFileSync(join(root, packageDir(pkg), 'package.json'), 'utf8')).version;
}

function writeJson(root: string, rel: string, value: unknown): void {
  writeFileAtomicSync(join(root, rel), `${JSON.stringify(value, null, 2)}\n`);
}

export async function computeManifests(root = process.cwd()) {
  const tm = readTokenizerManifest(root);
  const tokenizers: TokenizerEntry[] = [];
  for (const t of tm.tokenizers) {
    const dir = join(root, packageDir(t.package));
    const next: TokenizerEntry = {
      ...t,
      version: installedVersion(root, t.package),
      file: pin(dir, t.file),
      ...(t.config ? { config: pin(dir, t.config) } : {}),
      runtime: { package: t.runtime.package, version: installedVersion(root, t.runtime.package) },
    };
    const counter = await openTokenizer(next, { root });
    next.vocabSize = counter.vocabSize();
    counter.dispose();
    tokenizers.push(next);
  }
  const cm = readCorpusManifest(root);
  const corpora = cm.corpora.map((c) => {
    const entry = c.kind === 'project' ? c : { ...c, version: installedVersion(root, c.package) };
    const scan = scanCorpus(entry, { root });
    const out = { ...entry, fileCount: scan.files.length, characters: scan.characters, bytes: scan.bytes, sha256: scan.sha256, files: scan.files };
    if (out.kind === 'npm-zip') out.archive = pin(join(root, packageDir(out.package)), out.archive);
    return out;
  });
  return { tokenizers: { ...tm, tokenizers }, corpora: { ...cm, corpora } };
}

async function main() {
  const root = process.cwd();
  const write = process.argv.includes('--write');
  const next = await computeManifests(root);
  const pairs: [string, unknown][] = [
    [TOKENIZER_MANIFEST, next.tokenizers],
    [CORPUS_MANIFEST, next.corpora],
  ];
  let differs = false;
  for (const [rel, value] of pairs) {
    const want = `${JSON.stringify(value, null, 2)}\n`;
    const have = readFileSync(join(root, rel), 'utf8');
    if (want === have) console.log(`${rel}: up to date`);
    else if (write) {
      writeJson(root, rel, value);
      console.log(`${rel}: written`);
    } else {
      differs = true;
      console.log(`${rel}: differs from what is installed (run with --write to update)`);
    }
  }
  if (differs) process.exitCode = 1;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
