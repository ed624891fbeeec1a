import type AjvClass from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { UnprocessableError } from '@svc/errors';
import { inputMode } from './attributes';
import { msg } from './messages';
import { RESOURCES } from './registry';
import { silentlyIgnoredKeys } from './resources/common';
import { parseTimestampInput } from './time';
import type { AttributeSpec, AttrType, ResourceSpec } from './types';

/** JSON Schema of one attribute's input value. */
export function attributeJsonSchema(a: AttributeSpec): Record<string, unknown> {
  const base: Record<string, unknown> = (() => {
    switch (a.type) {
      case 'string':
      case 'text':
        return { type: 'string', ...(a.maxLength ? { maxLength: a.maxLength } : {}) };
      case 'datetime':
        return { type: 'string', format: 'svc-datetime' };
      case 'integer':
        return { type: 'integer' };
      case 'float':
        return { type: 'number' };
      case 'boolean':
        return { type: 'boolean' };
      case 'hash':
        return { type: 'object' };
      case 'array':
        return { type: 'array', items: { type: a.items === 'hash' ? 'object' : 'string' } };
    }
  })();
  if (!a.nullable) return base;
  const { type, ...rest } = base;
  return { ...rest, type: [type, 'null'] };
}

/** The JSON Schema of a create or update body's attributes. */
export function attributesJsonSchema(r: ResourceSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const key of silentlyIgnoredKeys) properties[key] = {};
  for (const [name, a] of Object.entries(r.attributes)) {
    properties[name] = inputMode(a) === 'ignored' ? {} : attributeJsonSchema(a);
  }
  return { type: 'object', properties, additionalProperties: false };
}

/**
 * Ajv and each resource's validator are made on first use, not when the module loads: every
 * program that reads the API table loads this module (the `svc` command among them, which
 * never validates), and loading Ajv and compiling every schema cost it about half a second.
 */
let ajv: AjvClass | null = null;
const validators = new Map<string, ValidateFunction>();

function validatorOf(r: ResourceSpec): ValidateFunction {
  let validate = validators.get(r.type);
  if (validate) return validate;
  const spec = RESOURCES.find((x) => x.type === r.type);
  if (!spec) throw new Error(`no validator for ${r.type}`);
  if (ajv === null) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above)
    const { default: Ajv } = require('ajv') as { default: typeof AjvClass };
    ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
    ajv.addFormat('svc-datetime', {
      type: 'string',
      validate: (s: string) => parseTimestampInput(s) !== null,
    });
  }
  validate = ajv.compile(attributesJsonSchema(spec));
  validators.set(r.type, validate);
  return validate;
}

const CONTRACT_TYPE_NAMES: Record<AttrType, string> = {
  string: 'string',
  text: 'string',
  integer: 'integer',
  float: 'number',
  boolean: 'boolean',
  datetime: 'datetime',
  hash: 'hash',
  array: 'array',
};

function messageFor(r: ResourceSpec, e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') {
    return msg.unknownAttribute(String(e.params['additionalProperty']), r.singular);
  }
  const [attr = '', index] = e.instancePath.slice(1).split('/');
  const spec = r.attributes[attr];
  if (spec?.typeMessage && e.keyword !== 'maxLength') return spec.typeMessage;
  if (index !== undefined) return msg.arrayOfStrings(attr);
  if (e.keyword === 'maxLength') return msg.tooLong(attr, Number(e.params['limit']));
  return msg.invalidType(attr, spec ? CONTRACT_TYPE_NAMES[spec.type] : 'string');
}

/**
 * Checks a create or update body against the resource's schema: unknown attributes and values of
 * the wrong type give one 422 listing every failed rule.
 */
export function validateAttributes(r: ResourceSpec, attrs: Record<string, unknown>): void {
  const validate = validatorOf(r);
  if (validate(attrs)) return;
  const messages = [...new Set((validate.errors ?? []).map((e) => messageFor(r, e)))];
  throw new UnprocessableError(messages);
}
