// The rrweb UMD bundle and its CSS, read once from the installed package. The bundle is wrapped in
// a function scope so it defines no global: pages cannot see or tamper with the recorder.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

let cached: { script: string; css: string } | undefined;

/**
 * The rrweb bundle (record and Replayer) as a function-scoped script that leaves `rrweb` in a local
 * variable, and the Replayer's CSS.
 * @throws Error when the `rrweb` package is not installed
 */
export function rrwebBundle(): { script: string; css: string } {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  // The package's `exports` hide `dist/`: resolve its entry and read the UMD build beside it.
  const dist = path.dirname(require.resolve('rrweb'));
  const umd = readFileSync(path.join(dist, 'rrweb.umd.min.cjs'), 'utf8').replace(
    /\/\/# sourceMappingURL=\S+\s*$/,
    '',
  );
  const css = readFileSync(path.join(dist, 'style.min.css'), 'utf8').replace(
    /\/\*# sourceMappingURL=\S+\s*\*\/\s*$/,
    '',
  );
  const script =
    'var module = { exports: {} }; var exports = module.exports; var define = undefined;\n' +
    umd +
    '\n;var rrweb = module.exports;\n';
  cached = { script, css };
  return cached;
}
