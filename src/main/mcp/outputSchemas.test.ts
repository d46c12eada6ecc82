// The MCP tools' output schemas (outputSchemas.json): one per tool and no other, the
// committed file what the generator makes of the types now, each schema one a client's
// validator compiles (the SDK's Ajv), accepting what the tools really answer and
// refusing an answer without a required field or with a field of another type.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestEngine, type TestEngine } from '../../../test/helpers/engine';
import { generateOutputSchemas, OUTPUT_SCHEMAS_FILE } from '../../../scripts/mcp-output-schemas';
import { OUTPUT_SCHEMA_TOOLS, outputSchemaFor, type OutputSchema } from './outputSchemas';
import { toolDefinitions } from './tools';

type Json = Record<string, unknown>;

const ajv = new AjvJsonSchemaValidator();
const validators = new Map(
  OUTPUT_SCHEMA_TOOLS.map((name) => [name, ajv.getValidator(outputSchemaFor(name))]),
);
const check = (tool: string, value: unknown) => validators.get(tool)!(value);

/** The schema `#/definitions/…` points at, within `root`. */
function deref(schema: Json, root: OutputSchema): Json {
  let s = schema;
  while (typeof s.$ref === 'string') {
    const name = decodeURIComponent(s.$ref.replace('#/definitions/', ''));
    s = (root.definitions as Record<string, Json>)[name]!;
  }
  return s;
}

/** The smallest value the schema describes: required fields only, the first choice of each. */
function sample(schema: Json, root: OutputSchema): unknown {
  const s = deref(schema, root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf)) return sample(s.anyOf[0] as Json, root);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(required.map((k) => [k, sample(props[k] ?? {}, root)]));
    }
    case 'array':
      return [];
    case 'string':
      return 'x';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** The root object's required fields and their schemas (of the first choice, for a union). */
function requiredFields(root: OutputSchema): [string, Json][] {
  const s = Array.isArray(root.anyOf) ? deref(root.anyOf[0] as Json, root) : (root as Json);
  const props = (s.properties ?? {}) as Record<string, Json>;
  return ((s.required ?? []) as string[]).map((k) => [k, props[k] ?? {}]);
}

/** A value of another JSON type than any `schema` allows, or null when it allows any. */
function wrongValue(schema: Json, root: OutputSchema): unknown {
  const s = deref(schema, root);
  const types = new Set(
    Array.isArray(s.anyOf)
      ? s.anyOf.flatMap((b) => [deref(b as Json, root).type].flat())
      : [s.type].flat(),
  );
  if (types.has(undefined)) return null;
  for (const [type, value] of [
    ['object', { wrong: true }],
    ['boolean', true],
    ['string', 'wrong'],
    ['number', 12.5],
  ] as const) {
    if (!types.has(type) && !(type === 'number' && types.has('integer'))) return value;
  }
  return null;
}

describe('MCP output schemas', () => {
  it('has one schema for every tool, and none for a tool that does not exist', () => {
    const tools = toolDefinitions().map((t) => t.name);
    expect([...OUTPUT_SCHEMA_TOOLS].sort()).toEqual([...tools].sort());
    for (const name of tools) expect(outputSchemaFor(name).type).toBe('object');
    expect(() => outputSchemaFor('no_such_tool')).toThrow(/no output schema/);
  });

  it('is what the generator makes of the tools’ output types now (npm run schemas:mcp)', async () => {
    const committed = JSON.parse(readFileSync(OUTPUT_SCHEMAS_FILE, 'utf8')) as Json;
    expect(await generateOutputSchemas()).toEqual(committed);
  }, 120_000);

  it('allows fields it does not know (a newer Loci may add some)', () => {
    for (const name of OUTPUT_SCHEMA_TOOLS) {
      expect(JSON.stringify(outputSchemaFor(name))).not.toContain('"additionalProperties":false');
      const value = sample(outputSchemaFor(name), outputSchemaFor(name)) as Json;
      expect(check(name, { ...value, added_later: [1, 'two'] }).valid, name).toBe(true);
    }
  });

  it('refuses an answer without a required field, or with a field of another type', () => {
    for (const name of OUTPUT_SCHEMA_TOOLS) {
      const schema = outputSchemaFor(name);
      const value = sample(schema, schema) as Json;
      expect(check(name, value).errorMessage, name).toBeUndefined();
      const fields = requiredFields(schema);
      expect(fields.length, name).toBeGreaterThan(0);
      for (const [field, fieldSchema] of fields) {
        const { [field]: _dropped, ...without } = value;
        expect(check(name, without).valid, `${name} without ${field}`).toBe(false);
        const wrong = wrongValue(fieldSchema, schema);
        if (wrong === null) continue;
        expect(
          check(name, { ...value, [field]: wrong }).valid,
          `${name}.${field} = ${JSON.stringify(wrong)}`,
        ).toBe(false);
      }
    }
  });

  describe('over a real store', () => {
    let t: TestEngine;
    beforeAll(async () => {
      t = await openTestEngine();
    });
    afterAll(async () => {
      await t.close();
    });

    it('accepts what the tools answer', async () => {
      const tools = new Map(toolDefinitions().map((d) => [d.name, d]));
      const client = t.agent('schema-test');
      const run = async (name: string, args: Json = {}) => {
        const answer = await tools.get(name)!.run(client, args, {});
        const verdict = check(name, answer.structured);
        expect(
          verdict.errorMessage,
          `${name}: ${JSON.stringify(answer.structured)}`,
        ).toBeUndefined();
        return answer.structured;
      };
      const a = await run('remember', {
        content: 'The billing service listens on port 8081.',
        kind: 'semantic',
        tags: ['billing'],
        evidence: [{ quote: 'billing listens on 8081', class: 'USER' }],
      });
      const b = await run('remember', {
        content: 'Deploys run from the release branch, tagged by CI.',
        kind: 'procedural',
        session: 'standup',
        speaker: 'user',
        occurred_at: '2026-02-27T10:00:00Z',
      });
      await run('remember', { content: 'The billing service listens on port 9090.' });
      await run('recall', { query: 'billing port' });
      await run('recall', { query: 'billing port', format: 'verbose' });
      await run('recall', { query: 'zebra migration in antarctica' });
      await run('read', { id: a.id });
      await run('update', { id: a.id, tags: ['billing', 'ports'] });
      await run('link', { from: a.id, to: b.id, type: 'related' });
      await run('explore', { id: a.id });
      await run('timeline', {});
      await run('map', {});
      await run('verify', { claim: 'The billing service listens on port 8081' });
      const conflicts = (await run('conflicts', { state: 'all' })) as {
        conflicts: { id: string }[];
      };
      const first = conflicts.conflicts[0];
      if (first) {
        await run('resolve', { ids: [first.id], resolution: 'dismiss' });
        await run('resolve', { ids: [first.id], undo: true });
      }
      await run('record_outcome', { id: b.id, success: true });
      await run('find_procedures', { query: 'deploy' });
      await run('stores');
      await run('stats');
      await run('doctor');
      await run('dream', { dry_run: true });
      await run('session_summary', {});
      await run('errors', { query: 'ECONNREFUSED' });
      await run('decisions', { query: 'deploys' });
      await run('forget', { id: b.id });
    });
  });
});
