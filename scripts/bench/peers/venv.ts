// Python systems, each in its own virtual environment under .bench-cache/venvs, installed
// from PyPI with pinned versions by pip (whatever index and wheel folders pip is set up
// with here) and reused while its recorded install matches the one asked for.
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { log, opts } from './common';

export interface VenvSpec {
  /** Folder under .bench-cache/venvs. */
  name: string;
  /** The Python versions it can run on, e.g. [3, 11] to [3, 11] for a 3.11-only wheel. */
  python: { min: [number, number]; max?: [number, number] };
  /** pip install argument lists, run in order (pinned requirements). */
  steps: string[][];
  /** Needs sqlite3 with extension loading (it loads sqlite-vec). */
  sqliteExtensions: boolean;
  /** Distributions whose installed versions the report gives. */
  report: string[];
}

export interface Venv {
  dir: string;
  bin: (name: string) => string;
  python: string;
  pythonVersion: string;
  /** sqlite3 replaced by pysqlite3 (the interpreter cannot load SQLite extensions). */
  sqliteShim: boolean;
  versions: Record<string, string>;
}

interface Interpreter {
  exe: string;
  version: [number, number, number];
  extensions: boolean;
}

// pysqlite3 is the standard library's sqlite3 module built with extension loading.
const SHIM_REQUIREMENT = 'pysqlite3-binary==0.5.4.post2';
const SHIM_MODULE = `# Written by Loci's bench:peers. This interpreter's sqlite3 cannot load extensions
# (sqlite-vec), so pysqlite3 (the same DB-API, built with extension loading) stands in.
import sys

import pysqlite3
import pysqlite3.dbapi2

sys.modules["sqlite3"] = pysqlite3
sys.modules["sqlite3.dbapi2"] = pysqlite3.dbapi2
`;

const PROBE = `import json, sqlite3, sys
c = sqlite3.connect(":memory:")
print(json.dumps({"exe": sys.executable, "version": list(sys.version_info[:3]),
  "extensions": hasattr(c, "enable_load_extension")}))`;

let interpreters: Interpreter[] | undefined;

/** Every Python 3 on PATH, in /usr/bin and under pyenv, by its real executable. */
function findInterpreters(): Interpreter[] {
  if (interpreters) return interpreters;
  const names = ['python3.13', 'python3.12', 'python3.11', 'python3.10', 'python3'];
  const candidates = new Set<string>();
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'])
    for (const n of names) if (dir && existsSync(join(dir, n))) candidates.add(join(dir, n));
  const pyenv = process.env.PYENV_ROOT ?? join(homedir(), '.pyenv');
  if (existsSync(join(pyenv, 'versions')))
    for (const v of readdirSync(join(pyenv, 'versions')))
      if (existsSync(join(pyenv, 'versions', v, 'bin/python3')))
        candidates.add(join(pyenv, 'versions', v, 'bin/python3'));
  const found = new Map<string, Interpreter>();
  for (const c of candidates) {
    const r = spawnSync(c, ['-c', PROBE], { encoding: 'utf8', timeout: 20_000 });
    if (r.status !== 0) continue;
    try {
      const i = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as Interpreter;
      const real = realpathSync(i.exe);
      if (!found.has(real)) found.set(real, { ...i, exe: i.exe });
    } catch {
      // not a Python we can use
    }
  }
  interpreters = [...found.values()];
  return interpreters;
}

const cmp = (a: readonly number[], b: readonly number[]) => (a[0]! - b[0]!) * 100 + (a[1]! - b[1]!);

/** One that fits: able to load SQLite extensions first (when needed), then the oldest fitting version. */
function chooseInterpreter(spec: VenvSpec): Interpreter {
  const fits = findInterpreters()
    .filter((i) => cmp(i.version, spec.python.min) >= 0)
    .filter((i) => !spec.python.max || cmp(i.version, spec.python.max) <= 0)
    .sort(
      (a, b) =>
        (spec.sqliteExtensions ? Number(b.extensions) - Number(a.extensions) : 0) ||
        cmp(a.version, b.version) ||
        a.version[2] - b.version[2],
    );
  const want = `${spec.python.min.join('.')}${spec.python.max ? `–${spec.python.max.join('.')}` : '+'}`;
  if (!fits[0])
    throw new Error(
      `needs Python ${want}; found ${
        findInterpreters()
          .map((i) => i.version.join('.'))
          .join(', ') || 'none'
      }`,
    );
  return fits[0];
}

function run(cmd: string, args: string[], logFile: string, budgetS: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(logFile, { flags: 'a' });
    out.write(`\n$ ${cmd} ${args.join(' ')}\n`);
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    p.stdout.pipe(out, { end: false });
    p.stderr.pipe(out, { end: false });
    const timer = setTimeout(() => p.kill('SIGKILL'), budgetS * 1000);
    p.once('error', reject);
    p.once('exit', (code, signal) => {
      clearTimeout(timer);
      out.end();
      if (code === 0) resolve();
      else if (signal === 'SIGKILL') reject(new Error(`over the install budget of ${budgetS} s`));
      else {
        const lines = readFileSync(logFile, 'utf8')
          .split('\n')
          .filter((l) => /error/i.test(l) && !/^WARNING: Location/.test(l));
        reject(new Error(`exit ${code}: ${(lines.at(-1) ?? 'see the log').trim().slice(0, 240)}`));
      }
    });
  });
}

/** The venv for `spec`, installed now unless the one on disk was installed the same way. */
export async function ensureVenv(spec: VenvSpec): Promise<Venv> {
  const dir = join(opts.cache, 'venvs', spec.name);
  const marker = join(dir, 'bench-install.json');
  const py = chooseInterpreter(spec);
  const sqliteShim = spec.sqliteExtensions && !py.extensions;
  const wanted = {
    steps: spec.steps,
    python: py.exe,
    pythonVersion: py.version.join('.'),
    sqliteShim,
  };
  const venv = (versions: Record<string, string>): Venv => ({
    dir,
    bin: (name) => join(dir, 'bin', name),
    python: join(dir, 'bin/python'),
    pythonVersion: wanted.pythonVersion,
    sqliteShim,
    versions,
  });
  if (existsSync(marker) && existsSync(join(dir, 'bin/python'))) {
    const had = JSON.parse(readFileSync(marker, 'utf8')) as typeof wanted & {
      versions: Record<string, string>;
    };
    if (
      JSON.stringify({ ...had, versions: undefined }) ===
      JSON.stringify({ ...wanted, versions: undefined })
    )
      return venv(had.versions);
    log(`  ${spec.name}: the venv was installed differently; installing again`);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(opts.cache, 'logs'), { recursive: true });
  const logFile = join(opts.cache, 'logs', `${spec.name}-install.log`);
  writeFileSync(
    logFile,
    `${new Date().toISOString()} ${spec.name} with Python ${wanted.pythonVersion} (${py.exe})\n`,
  );
  log(`  ${spec.name}: installing into ${dir} (Python ${wanted.pythonVersion}; log: ${logFile})…`);
  const t0 = performance.now();
  const left = () => Math.max(1, opts.installBudgetS - (performance.now() - t0) / 1000);
  try {
    await run(py.exe, ['-m', 'venv', dir], logFile, left());
    const pip = [join(dir, 'bin/python'), '-m', 'pip', 'install', '--disable-pip-version-check'];
    for (const step of spec.steps) await run(pip[0]!, [...pip.slice(1), ...step], logFile, left());
    if (sqliteShim) {
      await run(pip[0]!, [...pip.slice(1), SHIM_REQUIREMENT], logFile, left());
      const site = spawnSync(
        join(dir, 'bin/python'),
        ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
        {
          encoding: 'utf8',
        },
      ).stdout.trim();
      writeFileSync(join(site, '_bench_sqlite3_ext.py'), SHIM_MODULE);
      writeFileSync(join(site, '_bench_sqlite3_ext.pth'), 'import _bench_sqlite3_ext\n');
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pip install failed (${(e as Error).message}; log: ${logFile})`);
  }
  const versions = installedVersions(join(dir, 'bin/python'), spec.report);
  writeFileSync(marker, `${JSON.stringify({ ...wanted, versions }, null, 2)}\n`);
  log(`  ${spec.name}: installed in ${Math.round((performance.now() - t0) / 1000)} s`);
  return venv(versions);
}

function installedVersions(python: string, names: string[]): Record<string, string> {
  const r = spawnSync(
    python,
    [
      '-c',
      `import json, importlib.metadata as m
out = {}
for n in ${JSON.stringify(names)}:
    try: out[n] = m.version(n)
    except Exception: out[n] = "not installed"
print(json.dumps(out))`,
    ],
    { encoding: 'utf8' },
  );
  try {
    return JSON.parse(r.stdout.trim()) as Record<string, string>;
  } catch {
    return {};
  }
}
