// The pure part of `npm run pack` (scripts/pack.mjs), apart so it can be tested on small
// fixtures (test/package.test.ts): which files of out/main the CLI loads, which packages
// they import at run time, and the subset of package-lock.json that installs exactly
// those packages (the published npm-shrinkwrap.json).
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix } from 'node:path';
import ts from 'typescript';

// What is published (scripts/pack.mjs): the name, what the CLI's code may and may not
// import, and the package.json fields that are not the root package's.
export const PACKAGE_NAME = 'loci-memory';
/** What `bin/loci.js` starts: the CLI, and the own entries of `loci hook` and `loci mcp`. */
export const ENTRIES = ['cli.js', 'hook.js', 'mcp.js'];
/** Imports of the built code that are not runtime dependencies, and why. */
export const IGNORED = {
  tsx: 'engine/workers.ts loads it only when running from the TypeScript sources',
};
/** Packages that must never be dependencies of the npm package. */
export const FORBIDDEN = {
  electron: 'the desktop app is not part of the npm package (only out/main/index.js imports it)',
  react: 'the observatory is bundled into out/renderer',
  'react-dom': 'the observatory is bundled into out/renderer',
};
export const PACKAGE_META = {
  name: PACKAGE_NAME,
  description:
    'Long-term memory for AI agents on your machine: an MCP server (stdio and HTTP) with hybrid recall, versioned memories, an audit trail and a web observatory.',
  keywords: [
    'mcp',
    'mcp-server',
    'model-context-protocol',
    'memory',
    'long-term-memory',
    'agent-memory',
    'ai-agents',
    'sqlite',
    'embeddings',
    'local-first',
  ],
  homepage: 'https://github.com/loci-memory/loci#readme',
  repository: { type: 'git', url: 'git+https://github.com/loci-memory/loci.git' },
  bugs: { url: 'https://github.com/loci-memory/loci/issues' },
  // npm pack leaves npm-shrinkwrap.json out unless it is named here.
  files: ['bin/', 'out/', 'npm-shrinkwrap.json'],
};

const BUILTINS = new Set(builtinModules);

/** `node:fs`, `fs`, `fs/promises`: Node's own modules. */
export function isBuiltin(specifier) {
  return specifier.startsWith('node:') || BUILTINS.has(specifier);
}

/** The package a bare specifier names: `a/b/c.js` → `a`, `@s/a/b` → `@s/a`. */
export function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function literalText(node) {
  if (!node) return null;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return null;
}

/** `createRequire(…)`, the callee of `createRequire(…)('x')` and `createRequire(…).resolve('x')`. */
function isCreateRequireCall(node) {
  return (
    ts.isCallExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === 'createRequire'
  );
}

function isRequireLike(node) {
  return (ts.isIdentifier(node) && node.text === 'require') || isCreateRequireCall(node);
}

/**
 * What one built JavaScript file loads. `imports`: every module specifier of a static or
 * dynamic import, a re-export, a `require(…)` (also through `createRequire(…)`),
 * `require.resolve(…)` or `import.meta.resolve(…)`, in source order. `strings`: every other
 * string literal (a worker entry is named by one: `spawnWorker(import.meta.url,
 * 'embedWorker.js', …)`). `dynamic`: loads whose specifier is not a literal, which no scan
 * can follow, as `{ line, text }`.
 */
export function scanModule(source, fileName = 'module.js') {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.JS,
  );
  const imports = [];
  const strings = [];
  const dynamic = [];
  const specifierNodes = new Set();
  const note = (arg, call) => {
    const text = literalText(arg);
    if (text !== null) {
      imports.push(text);
      specifierNodes.add(arg);
    } else {
      const { line } = file.getLineAndCharacterOfPosition(call.getStart(file));
      dynamic.push({ line: line + 1, text: call.getText(file).slice(0, 120) });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      if (node.moduleSpecifier) {
        imports.push(literalText(node.moduleSpecifier));
        specifierNodes.add(node.moduleSpecifier);
      }
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const arg = node.arguments[0];
      if (callee.kind === ts.SyntaxKind.ImportKeyword) note(arg, node);
      else if (isRequireLike(callee)) note(arg, node);
      else if (
        ts.isPropertyAccessExpression(callee) &&
        callee.name.text === 'resolve' &&
        (isRequireLike(callee.expression) ||
          (ts.isMetaProperty(callee.expression) &&
            callee.expression.keywordToken === ts.SyntaxKind.ImportKeyword))
      )
        note(arg, node);
    } else if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      !specifierNodes.has(node)
    ) {
      strings.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { imports: imports.filter((s) => s !== null), strings, dynamic };
}

/**
 * The files of a build folder that `roots` load, and the packages they import. Followed:
 * relative imports, and string literals that name a sibling file of the folder (worker
 * entries). Returns `files` (relative paths, sorted), `packages` (name → the files that
 * import it, sorted), `dynamic` (file → its non-literal loads) and `unreached` (the
 * folder's .js files that nothing loads).
 */
export function scanBuild(dir, roots) {
  const all = new Set(listFiles(dir).filter((f) => /\.(m?js|cjs)$/.test(f)));
  const reached = new Set();
  const packages = new Map();
  const dynamic = new Map();
  const queue = [];
  const reach = (file, from) => {
    if (!all.has(file)) throw new Error(`${from ?? 'roots'}: ${file} is not in ${dir}`);
    if (reached.has(file)) return;
    reached.add(file);
    queue.push(file);
  };
  for (const root of roots) reach(root, null);
  while (queue.length > 0) {
    const file = queue.shift();
    const here = posix.dirname(file);
    const scan = scanModule(readFileSync(join(dir, file), 'utf8'), file);
    if (scan.dynamic.length > 0) dynamic.set(file, scan.dynamic);
    for (const spec of scan.imports) {
      if (spec.startsWith('./') || spec.startsWith('../')) {
        reach(posix.normalize(posix.join(here, spec)), file);
      } else if (spec.startsWith('/') || /^[a-z]+:/i.test(spec)) {
        if (!isBuiltin(spec)) throw new Error(`${file}: cannot follow the import "${spec}"`);
      } else if (!isBuiltin(spec)) {
        const name = packageNameOf(spec);
        if (!packages.has(name)) packages.set(name, new Set());
        packages.get(name).add(file);
      }
    }
    for (const s of scan.strings) {
      const sibling = posix.normalize(posix.join(here, s));
      if (/^(\.\/)?[\w.-]+\.(m?js|cjs)$/.test(s) && all.has(sibling)) reach(sibling, file);
    }
  }
  return {
    files: [...reached].sort(),
    packages: new Map(
      [...packages.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, [...v].sort()]),
    ),
    dynamic,
    unreached: [...all].filter((f) => !reached.has(f)).sort(),
  };
}

function listFiles(dir, prefix = '') {
  const out = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

/**
 * The staged package's `dependencies`: each imported package at the exact version the
 * lockfile installs at the top level. Throws when one is not a dependency of the root
 * package.json (a devDependency or a transitive one would be missing for users), or is
 * forbidden (`forbidden`: name → why, e.g. electron). `ignored`: name → why the import is
 * not a runtime one (it is left out).
 */
export function runtimeDependencies(
  imported,
  rootPackage,
  lock,
  { ignored = {}, forbidden = {} } = {},
) {
  const declared = rootPackage.dependencies ?? {};
  const problems = [];
  const deps = {};
  for (const [name, files] of imported) {
    if (Object.hasOwn(ignored, name)) continue;
    const where = files.length > 0 ? ` (imported by ${files.join(', ')})` : '';
    if (Object.hasOwn(forbidden, name)) {
      problems.push(
        `"${name}" must not be a dependency of the package: ${forbidden[name]}${where}`,
      );
      continue;
    }
    // An optional dependency stays optional (runtimeOptionalDependencies lists it).
    if (Object.hasOwn(rootPackage.optionalDependencies ?? {}, name)) continue;
    if (!Object.hasOwn(declared, name)) {
      const kind = rootPackage.devDependencies?.[name] ? 'a devDependency' : 'not declared';
      problems.push(
        `"${name}" is imported at run time${where} but is ${kind} in package.json: make it a dependency`,
      );
      continue;
    }
    const version = lockedVersion(lock, name);
    if (!version) {
      problems.push(notInstalled(name));
      continue;
    }
    deps[name] = version;
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return byName(deps);
}

/**
 * The staged package's `optionalDependencies`: the imported packages the root
 * package.json declares optional (the code loads them where they installed and does
 * without them elsewhere), each at the version the lockfile installs. Forbidden and
 * ignored ones are left to runtimeDependencies.
 */
export function runtimeOptionalDependencies(
  imported,
  rootPackage,
  lock,
  { ignored = {}, forbidden = {} } = {},
) {
  const optional = rootPackage.optionalDependencies ?? {};
  const deps = {};
  for (const name of imported.keys()) {
    if (!Object.hasOwn(optional, name) || Object.hasOwn(ignored, name)) continue;
    if (Object.hasOwn(forbidden, name)) continue;
    const version = lockedVersion(lock, name);
    if (!version) throw new Error(notInstalled(name));
    deps[name] = version;
  }
  return byName(deps);
}

/** The version the lockfile installs at the top level (node_modules/<name>). */
function lockedVersion(lock, name) {
  return lock.packages?.[`node_modules/${name}`]?.version;
}

const notInstalled = (name) =>
  `"${name}" is not installed at node_modules/${name} in package-lock.json`;

/** name → version, sorted by name (as package.json keeps them). */
function byName(deps) {
  return Object.fromEntries(Object.entries(deps).sort(([a], [b]) => a.localeCompare(b)));
}

/** `node_modules/a/node_modules/@s/b` → `b`'s name, `@s/b`. */
export function nameAtPath(path) {
  const i = path.lastIndexOf('node_modules/');
  return path.slice(i + 'node_modules/'.length);
}

/** The folder whose node_modules holds `path`: `node_modules/a/node_modules/b` → `node_modules/a`. */
function parentOf(path) {
  const i = path.lastIndexOf('/node_modules/');
  return i === -1 ? '' : path.slice(0, i);
}

/**
 * Node's resolution over lockfile paths: `name` required from the package at `from`
 * (`''` is the root) is at `from/node_modules/name`, else in the node_modules of each
 * folder above, else at the top, `node_modules/name`. Null when the lockfile has none.
 */
export function resolveInLock(packages, from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (Object.hasOwn(packages, candidate)) return candidate;
    if (dir === '') return null;
    dir = parentOf(dir);
  }
}

/** A package's edges: required ones (dependencies, non-optional peers) and optional ones. */
function edgesOf(entry) {
  const optionalPeers = new Set(
    Object.entries(entry.peerDependenciesMeta ?? {})
      .filter(([, meta]) => meta?.optional)
      .map(([name]) => name),
  );
  const required = [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.peerDependencies ?? {}).filter((n) => !optionalPeers.has(n)),
  ];
  const optional = Object.keys(entry.optionalDependencies ?? {});
  return { required: required.filter((n) => !optional.includes(n)), optional };
}

/** The registry's tarball address of a package: `…/@s/a/-/a-1.0.0.tgz`. */
export function registryTarball(name, version, registry = 'https://registry.npmjs.org/') {
  const base = name.startsWith('@') ? name.split('/')[1] : name;
  return `${registry.replace(/\/?$/, '/')}${name}/-/${base}-${version}.tgz`;
}

// Flags npm computes for the whole tree of the root project; the subset gets its own.
const RECOMPUTED = new Set(['dev', 'optional', 'devOptional', 'peer']);

/**
 * The npm-shrinkwrap.json of a package whose dependencies (`name → version`, each at
 * `node_modules/<name>` in `lock`) are `dependencies`: the lockfile entries reachable
 * from them by Node's resolution (dependencies, optionalDependencies with their
 * platform packages, required peers), each kept at its path with its fields (`os`, `cpu`,
 * `integrity`, …). `optional: true` marks what only optional edges reach. Registry
 * packages without a `resolved` address get the registry's (`registry`), so an install
 * fetches tarballs without asking for package metadata. Throws on a required dependency
 * the lockfile lacks, on a dev-only entry the runtime reaches, and on links.
 */
export function shrinkwrapSubset(lock, rootEntry, { registry } = {}) {
  if (lock.lockfileVersion !== 3 && lock.lockfileVersion !== 2)
    throw new Error(`package-lock.json: lockfileVersion ${lock.lockfileVersion} has no "packages"`);
  const packages = lock.packages ?? {};
  const required = new Set();
  const reached = new Set();
  const problems = [];
  // Two passes: along required edges only (what must be installed), then along every
  // edge (what may be); an entry of the second and not the first is optional.
  const walk = (set, withOptional) => {
    const queue = [];
    const add = (from, name, optional) => {
      const path = resolveInLock(packages, from, name);
      if (path === null) {
        // A required dependency must be there. (The second pass does not ask again: what it
        // alone reaches is optional, and npm skips an optional package it cannot place.)
        if (!optional && !withOptional)
          problems.push(`${from || 'the package'} needs "${name}", which package-lock.json lacks`);
        return;
      }
      if (set.has(path)) return;
      set.add(path);
      queue.push(path);
    };
    const root = edgesOf(rootEntry);
    for (const name of root.required) add('', name, false);
    if (withOptional) for (const name of root.optional) add('', name, true);
    while (queue.length > 0) {
      const path = queue.shift();
      const entry = packages[path];
      if (entry.link) {
        problems.push(`${path} is a link (${entry.resolved}); a published package cannot ship it`);
        continue;
      }
      const edges = edgesOf(entry);
      for (const name of edges.required) add(path, name, false);
      if (withOptional) for (const name of edges.optional) add(path, name, true);
    }
  };
  walk(required, false);
  walk(reached, true);
  const out = {};
  for (const path of [...reached].sort()) {
    const entry = packages[path];
    if (entry.dev)
      problems.push(`${path} is dev-only in package-lock.json, but the runtime reaches it`);
    const kept = Object.fromEntries(Object.entries(entry).filter(([k]) => !RECOMPUTED.has(k)));
    if (!kept.resolved && kept.integrity && !entry.inBundle && kept.version) {
      kept.resolved = registryTarball(entry.name ?? nameAtPath(path), kept.version, registry);
    }
    if (!required.has(path)) kept.optional = true;
    out[path] = orderFields(kept);
  }
  if (problems.length > 0) throw new Error([...new Set(problems)].join('\n'));
  return {
    name: rootEntry.name,
    version: rootEntry.version,
    lockfileVersion: 3,
    requires: true,
    packages: { '': rootEntry, ...out },
  };
}

// npm's own order of an entry's fields, so the file reads like one npm wrote.
const FIELD_ORDER = [
  'name',
  'version',
  'resolved',
  'integrity',
  'optional',
  'inBundle',
  'hasInstallScript',
  'license',
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'libc',
  'funding',
];

function orderFields(entry) {
  const rank = (k) => {
    const i = FIELD_ORDER.indexOf(k);
    return i === -1 ? FIELD_ORDER.length : i;
  };
  return Object.fromEntries(Object.entries(entry).sort(([a], [b]) => rank(a) - rank(b)));
}

/** The staged package.json (`name`, `mcpName` and the rest from `meta`). */
export function stagedPackageJson(rootPackage, dependencies, meta, optionalDependencies = {}) {
  return {
    name: meta.name,
    version: rootPackage.version,
    description: meta.description ?? rootPackage.description,
    keywords: meta.keywords,
    license: rootPackage.license,
    ...(meta.homepage ? { homepage: meta.homepage } : {}),
    ...(meta.repository ? { repository: meta.repository } : {}),
    ...(meta.bugs ? { bugs: meta.bugs } : {}),
    mcpName: meta.mcpName,
    type: rootPackage.type,
    bin: rootPackage.bin,
    files: meta.files,
    engines: rootPackage.engines,
    dependencies,
    ...(Object.keys(optionalDependencies).length > 0 ? { optionalDependencies } : {}),
  };
}

/** The root entry of the shrinkwrap: the staged package itself. */
export function shrinkwrapRoot(pkg) {
  return {
    name: pkg.name,
    version: pkg.version,
    license: pkg.license,
    dependencies: pkg.dependencies,
    ...(pkg.optionalDependencies ? { optionalDependencies: pkg.optionalDependencies } : {}),
    bin: pkg.bin,
    engines: pkg.engines,
  };
}
