// Writes src/main/mcp/outputSchemas.json: every MCP tool's output schema, generated
// (ts-json-schema-generator) from the TypeScript type of the tool's structured content,
// as ToolOutputs in src/main/mcp/structured.ts names it; the tools' run() are compiled
// against the same types. `npm run schemas:mcp` after changing one of them;
// src/main/mcp/outputSchemas.test.ts fails while the committed file differs.
//
// Each schema is self-contained (its definitions under `definitions`), `type: "object"`
// at the root (MCP asks for it), with the required fields and the types of the
// TypeScript type and no ban on other properties: a newer Loci may add fields without
// breaking a client that validates. A type that is a zod schema's `z.infer`/`z.output`/
// `z.input` comes from the zod schema itself (z.toJSONSchema), without the limits it puts
// on arguments (lengths, patterns): those are what Loci accepts, not what it answers.
import { writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import {
  BaseType,
  createFormatter,
  createParser,
  createProgram,
  DEFAULT_CONFIG,
  LiteralType,
  SchemaGenerator,
  UnionType,
  type CompletedConfig,
  type Context,
  type Definition,
  type SubNodeParser,
  type SubTypeFormatter,
} from 'ts-json-schema-generator';
import ts from 'typescript';
import { z } from 'zod';

type Json = Record<string, unknown>;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUTPUT_SCHEMAS_FILE = join(root, 'src/main/mcp/outputSchemas.json');
const SOURCE = join(root, 'src/main/mcp/structured.ts');
const ROOT_TYPE = 'ToolOutputs';
const DRAFT = 'http://json-schema.org/draft-07/schema#';
/** Where zod-inferred types may come from: runtime-neutral modules, safe to import here. */
const ZOD_HOME = join(root, 'src/shared') + sep;

/** Keywords of argument limits, dropped from what a zod schema says of a result. */
const LIMITS = new Set([
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'default',
]);

/** `z.infer<typeof X>` (or z.output, z.input): the io it means and the `X`, else null. */
function zodReference(
  node: ts.Node,
  checker: ts.TypeChecker,
): { io: 'input' | 'output'; target: ts.Identifier } | null {
  if (!ts.isTypeReferenceNode(node) || !ts.isQualifiedName(node.typeName)) return null;
  const which = node.typeName.right.text;
  if (which !== 'infer' && which !== 'output' && which !== 'input') return null;
  const arg = node.typeArguments?.[0];
  if (node.typeArguments?.length !== 1 || !arg || !ts.isTypeQueryNode(arg)) return null;
  if (!ts.isIdentifier(arg.exprName)) return null;
  // The namespace must be zod's.
  const ns = checker.getSymbolAtLocation(node.typeName.left);
  const decl = ns?.declarations?.[0];
  const from =
    decl && (ts.isImportSpecifier(decl) || ts.isNamespaceImport(decl))
      ? decl.parent.parent.parent
      : undefined;
  const spec = from && ts.isImportDeclaration(from) ? from.moduleSpecifier : undefined;
  if (!spec || !ts.isStringLiteral(spec) || spec.text !== 'zod') return null;
  return { io: which === 'input' ? 'input' : 'output', target: arg.exprName };
}

/** The module and export name that declare the value `id` names. */
function declarationOf(id: ts.Identifier, checker: ts.TypeChecker): { file: string; name: string } {
  let symbol = checker.getSymbolAtLocation(id);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol?.valueDeclaration;
  if (!symbol || !decl) throw new Error(`Cannot resolve the zod schema ${id.text}`);
  return { file: resolve(decl.getSourceFile().fileName), name: symbol.name };
}

const zodKey = (file: string, name: string, io: string) => `${file}#${name}#${io}`;

/** A zod schema's JSON Schema, standing in for the type inferred from it. */
class ZodSchemaType extends BaseType {
  constructor(
    private readonly id: string,
    readonly definition: Definition,
  ) {
    super();
  }
  getId(): string {
    return this.id;
  }
}

class ZodInferParser implements SubNodeParser {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly schemas: Map<string, Definition>,
  ) {}
  supportsNode(node: ts.Node): boolean {
    return zodReference(node, this.checker) !== null;
  }
  createType(node: ts.Node, _context: Context): BaseType {
    const ref = zodReference(node, this.checker)!;
    const { file, name } = declarationOf(ref.target, this.checker);
    const key = zodKey(file, name, ref.io);
    const definition = this.schemas.get(key);
    if (!definition) {
      throw new Error(
        `${name} (${relative(root, file)}): a type inferred from a zod schema must come from src/shared`,
      );
    }
    // An enumeration of strings as the generator's own union of literals, so that a
    // mapped type over it (`Record<MemoryKind, number>`) has its keys.
    const values = definition.enum;
    if (
      definition.type === 'string' &&
      Array.isArray(values) &&
      Object.keys(definition).every((k) => k === 'type' || k === 'enum' || k === 'description')
    ) {
      return new UnionType(values.map((v) => new LiteralType(v as string)));
    }
    return new ZodSchemaType(`zod-${relative(root, key)}`, definition);
  }
}

class ZodSchemaFormatter implements SubTypeFormatter {
  supportsType(type: BaseType): boolean {
    return type instanceof ZodSchemaType;
  }
  getDefinition(type: ZodSchemaType): Definition {
    return structuredClone(type.definition);
  }
  getChildren(): BaseType[] {
    return [];
  }
}

/** Every value (or object property) in `value`, depth first, including itself. */
function* walk(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const v of value) yield* walk(v);
  else if (value && typeof value === 'object') {
    yield value as Json;
    for (const v of Object.values(value)) yield* walk(v);
  }
}

/** The JSON Schemas of the zod schemas that types under src/shared are inferred from. */
async function zodSchemas(program: ts.Program): Promise<Map<string, Definition>> {
  const checker = program.getTypeChecker();
  const wanted = new Map<string, { file: string; name: string; io: 'input' | 'output' }>();
  for (const source of program.getSourceFiles()) {
    if (!resolve(source.fileName).startsWith(ZOD_HOME)) continue;
    const visit = (node: ts.Node): void => {
      const ref = zodReference(node, checker);
      if (ref) {
        const d = declarationOf(ref.target, checker);
        if (d.file.startsWith(ZOD_HOME))
          wanted.set(zodKey(d.file, d.name, ref.io), { ...d, ...ref });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const out = new Map<string, Definition>();
  for (const [key, { file, name, io }] of wanted) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const schema = mod[name];
    if (!(schema instanceof z.ZodType)) throw new Error(`${name} of ${file} is not a zod schema`);
    const json = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Json;
    delete json.$schema;
    for (const node of walk(json))
      for (const k of Object.keys(node)) if (LIMITS.has(k)) delete node[k];
    out.set(key, json as Definition);
  }
  return out;
}

/** The definition `#/definitions/<name>` points at. */
const refName = (ref: string) => decodeURIComponent(ref.replace(/^#\/definitions\//, ''));

/** One tool's schema out of the whole: its own copy, with the definitions it reaches. */
function toolSchema(tool: string, property: Json, definitions: Record<string, Json>): Json {
  let schema: Json = structuredClone(property);
  // The root itself: the definition it names, not a reference.
  while (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    const target = definitions[refName($ref as string)];
    if (!target) throw new Error(`${tool}: no definition for ${String($ref)}`);
    schema = { ...structuredClone(target), ...rest };
  }
  const reached: Record<string, Json> = {};
  const visit = (value: unknown) => {
    for (const node of walk(value)) {
      if (typeof node.$ref !== 'string') continue;
      const name = refName(node.$ref);
      if (name in reached) continue;
      const target = definitions[name];
      if (!target) throw new Error(`${tool}: no definition for ${node.$ref}`);
      reached[name] = structuredClone(target);
      visit(reached[name]);
    }
  };
  visit(schema);
  // A union (anyOf of objects) is an object too: say so where MCP looks, at the root.
  if (schema.type === undefined && Array.isArray(schema.anyOf))
    schema = { type: 'object', ...schema };
  if (schema.type !== 'object') {
    throw new Error(
      `${tool}: the root of an output schema must be an object (${JSON.stringify(schema.type)})`,
    );
  }
  const sorted = Object.fromEntries(
    Object.keys(reached)
      .sort()
      .map((k) => [k, reached[k]]),
  );
  const out: Json = {
    $schema: DRAFT,
    ...schema,
    ...(Object.keys(sorted).length ? { definitions: sorted } : {}),
  };
  // Forward compatible: other properties are allowed everywhere.
  for (const node of walk(out))
    if (node.additionalProperties === false) delete node.additionalProperties;
  return out;
}

/** Every tool's output schema, by tool name, in the order ToolOutputs lists them. */
export async function generateOutputSchemas(): Promise<Record<string, Json>> {
  const config: CompletedConfig = {
    ...DEFAULT_CONFIG,
    path: SOURCE,
    tsconfig: join(root, 'tsconfig.node.json'),
    type: ROOT_TYPE,
    expose: 'export',
    topRef: false,
    jsDoc: 'extended',
    additionalProperties: true,
    // `npm run typecheck` checks these files; a second full check here only costs time.
    skipTypeCheck: true,
  };
  const program = createProgram(config);
  const schemas = await zodSchemas(program);
  const parser = createParser(program, config, (p) =>
    p.addNodeParser(new ZodInferParser(program.getTypeChecker(), schemas)),
  );
  const formatter = createFormatter(config, (f) => f.addTypeFormatter(new ZodSchemaFormatter()));
  const whole = new SchemaGenerator(program, parser, formatter, config).createSchema(
    ROOT_TYPE,
  ) as Json;
  const properties = whole.properties as Record<string, Json> | undefined;
  if (!properties) throw new Error(`${ROOT_TYPE} has no properties`);
  const definitions = (whole.definitions ?? {}) as Record<string, Json>;
  return Object.fromEntries(
    Object.entries(properties).map(([tool, p]) => [tool, toolSchema(tool, p, definitions)]),
  );
}

/** The file's text: formatted as prettier formats it, so `npm run format` leaves it be. */
export async function renderOutputSchemas(schemas: Record<string, Json>): Promise<string> {
  const options = (await prettier.resolveConfig(OUTPUT_SCHEMAS_FILE)) ?? {};
  return prettier.format(JSON.stringify(schemas), { ...options, filepath: OUTPUT_SCHEMAS_FILE });
}

async function main() {
  const started = performance.now();
  const schemas = await generateOutputSchemas();
  writeFileSync(OUTPUT_SCHEMAS_FILE, await renderOutputSchemas(schemas));
  console.log(
    `${relative(root, OUTPUT_SCHEMAS_FILE)}: ${Object.keys(schemas).length} tools (${Math.round(performance.now() - started)} ms)`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
