// Loci's own credential rules, run beside secretlint's maintained recommended preset
// (see secrets.ts). The preset covers many providers but not every format agents meet
// (GitHub fine-grained tokens, OpenAI project keys, Stripe, JWTs, `.env` lines, JSON
// fields, Authorization headers, passwords in prose). Each rule is listed in the README.
// Rules only ever report their id: the matched value is never returned or logged.

export interface SecretRule {
  id: string;
  description: string;
  pattern: RegExp;
  /** Capture group holding the secret value, checked against placeholders. 0 = whole match. */
  valueGroup: number;
  /** Extra check on the value (strength, shape); true means "this is a secret". */
  accept?: (value: string) => boolean;
}

const PLACEHOLDER_WORDS =
  /(example|sample|placeholder|changeme|change[_-]?me|dummy|fake|redacted|replace|insert|your[_-]|xxxx|\*\*\*|<|>|\{\{|\}\}|\.\.\.)/i;
const PLACEHOLDER_EXACT = new Set([
  'password',
  'passwd',
  'pass',
  'secret',
  'token',
  'null',
  'none',
  'nil',
  'undefined',
  'true',
  'false',
  'test',
  'testing',
  'admin',
  'root',
  'default',
  'required',
  'optional',
  'string',
  'empty',
  'hidden',
]);

/** True for values that stand in for a secret rather than being one. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  if (PLACEHOLDER_EXACT.has(v.toLowerCase())) return true;
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(v)) return true; // $VAR, ${VAR}
  if (/^\$\(.*\)$/.test(v)) return true; // $(command)
  if (/^%[A-Za-z_][A-Za-z0-9_]*%$/.test(v)) return true; // %VAR%
  if (/^(.)\1+$/.test(v)) return true; // xxxxxxxx, ********, 00000000
  return PLACEHOLDER_WORDS.test(v);
}

/** Character classes present: lower, upper, digit, other. */
function classes(value: string): number {
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const notPlaceholder = (v: string) => !isPlaceholder(v);

/** A value under a secret-named key: not a placeholder, not a plain number, not a URL. */
function assignedSecret(v: string): boolean {
  if (isPlaceholder(v) || v.length < 6) return false;
  if (/^\d{1,15}$/.test(v)) return false;
  if (/^https?:\/\//i.test(v) && !/:\/\/[^/\s]+:[^/\s]+@/.test(v)) return false;
  if (/^[a-z]+$/.test(v) && v.length < 12) return false; // a lone lowercase word: `disabled`, `vault`
  return true;
}

/** A password written in prose must look like one: two character classes at least. */
function proseSecret(v: string): boolean {
  return !isPlaceholder(v) && v.length >= 6 && classes(v) >= 2 && entropy(v) >= 2.5;
}

/** Key names that hold secrets end with one of these (GITHUB_TOKEN, db_password, apiKey). */
const SECRET_KEY_SUFFIX =
  '(?:secret|token|password|passwd|passphrase|pwd|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|credentials?|auth[_-]?token|signing[_-]?key|encryption[_-]?key|master[_-]?key|client[_-]?secret|webhook[_-]?secret)';

export const SECRET_RULES: SecretRule[] = [
  {
    id: 'aws-access-key-id',
    description: 'AWS access key id (AKIA…, ASIA…)',
    pattern: /\b((?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b/g,
    valueGroup: 1,
    accept: notPlaceholder,
  },
  {
    id: 'aws-secret-access-key',
    description: 'AWS secret access key next to its name',
    pattern: /aws.{0,20}?(?:secret|private).{0,20}?["'\s:=]+([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/gi,
    valueGroup: 1,
    accept: notPlaceholder,
  },
  {
    id: 'github-token',
    description: 'GitHub classic token (ghp_, gho_, ghu_, ghs_, ghr_)',
    pattern: /\b(gh[pousr]_[A-Za-z0-9]{36,255})\b/g,
    valueGroup: 1,
  },
  {
    id: 'github-fine-grained-token',
    description: 'GitHub fine-grained personal access token (github_pat_…)',
    pattern: /\b(github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59})\b/g,
    valueGroup: 1,
  },
  {
    id: 'gitlab-token',
    description: 'GitLab personal access token (glpat-…)',
    pattern: /\b(glpat-[A-Za-z0-9_-]{20,})\b/g,
    valueGroup: 1,
  },
  {
    id: 'slack-token',
    description: 'Slack token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xapp-)',
    pattern: /\b((?:xox[abposre]|xapp)-\d+-[A-Za-z0-9-]{8,})/g,
    valueGroup: 1,
  },
  {
    id: 'slack-webhook',
    description: 'Slack incoming-webhook URL',
    pattern: /(https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]{16,})/g,
    valueGroup: 1,
  },
  {
    id: 'openai-api-key',
    description: 'OpenAI API key (sk-proj-…, sk-svcacct-…, sk-admin-…, legacy sk-…T3BlbkFJ…)',
    pattern:
      /\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|sk-[A-Za-z0-9]{48})(?![A-Za-z0-9_-])/g,
    valueGroup: 1,
  },
  {
    id: 'anthropic-api-key',
    description: 'Anthropic API key (sk-ant-api03-…, sk-ant-admin01-…)',
    pattern: /\b(sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,})/g,
    valueGroup: 1,
  },
  {
    id: 'stripe-key',
    description: 'Stripe secret or restricted key (sk_live_, sk_test_, rk_live_, rk_test_)',
    pattern: /\b((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,})\b/g,
    valueGroup: 1,
  },
  {
    id: 'stripe-webhook-secret',
    description: 'Stripe webhook signing secret (whsec_…)',
    pattern: /\b(whsec_[A-Za-z0-9+/=]{24,})/g,
    valueGroup: 1,
  },
  {
    id: 'private-key',
    description: 'PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, PGP)',
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
    valueGroup: 0,
  },
  {
    id: 'jwt',
    description: 'JSON Web Token (three base64url parts, header and payload starting eyJ)',
    pattern: /\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,})/g,
    valueGroup: 1,
  },
  {
    id: 'google-api-key',
    description: 'Google API key (AIza…)',
    pattern: /\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])/g,
    valueGroup: 1,
  },
  {
    id: 'npm-token',
    description: 'npm access token (npm_…)',
    pattern: /\b(npm_[A-Za-z0-9]{36})\b/g,
    valueGroup: 1,
  },
  {
    id: 'pypi-token',
    description: 'PyPI upload token (pypi-AgEIcHlwaS5vcmc…)',
    pattern: /\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})/g,
    valueGroup: 1,
  },
  {
    id: 'huggingface-token',
    description: 'Hugging Face access token (hf_…)',
    pattern: /\b(hf_[A-Za-z]{34})\b/g,
    valueGroup: 1,
  },
  {
    id: 'sendgrid-api-key',
    description: 'SendGrid API key (SG.….…)',
    pattern: /\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/g,
    valueGroup: 1,
  },
  {
    id: 'azure-storage-key',
    description: 'Azure storage account key in a connection string (AccountKey=…)',
    pattern: /AccountKey=([A-Za-z0-9+/=]{60,})/g,
    valueGroup: 1,
  },
  {
    id: 'url-with-password',
    description: 'Connection string or URL with an inline password (postgres://user:pass@host)',
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"]+:([^\s@/'"]+)@[^\s/'"?#]+/gi,
    valueGroup: 1,
    accept: (v) => !isPlaceholder(v) && !isPlaceholder(decodeURIComponentSafe(v)),
  },
  {
    id: 'authorization-header',
    description: 'Authorization header with a bearer, basic or token credential',
    pattern:
      /\bauthorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|bot)\s+([A-Za-z0-9._~+/=-]{12,})/gi,
    valueGroup: 1,
    accept: notPlaceholder,
  },
  {
    id: 'api-key-header',
    description: 'API-key header (X-API-Key, Api-Key, X-Auth-Token, Private-Token)',
    pattern:
      /\b(?:x-api-key|api-key|x-auth-token|private-token)["']?\s*:\s*["']?([A-Za-z0-9._~+/=-]{12,})/gi,
    valueGroup: 1,
    accept: notPlaceholder,
  },
  {
    id: 'env-assignment',
    description: 'A secret-named variable assigned a value (.env, shell, YAML, TOML)',
    pattern: new RegExp(
      `(?:^|[\\s;])(?:export[ \\t]+)?[A-Za-z0-9_.-]*${SECRET_KEY_SUFFIX}[ \\t]*[:=][ \\t]*["']?([^\\s"'#,;]{6,})`,
      'gim',
    ),
    valueGroup: 1,
    accept: assignedSecret,
  },
  {
    id: 'json-secret-field',
    description: 'A secret-named JSON field with a string value ({"token": "…"})',
    pattern: new RegExp(`"[A-Za-z0-9_.-]*${SECRET_KEY_SUFFIX}"\\s*:\\s*"([^"\\\\]{8,})"`, 'gi'),
    valueGroup: 1,
    accept: assignedSecret,
  },
  {
    id: 'password-in-prose',
    description: 'A password stated in prose ("the password is …")',
    pattern: /\b(?:password|passwd|passphrase|pwd)\s*(?:is|was|=|:)\s*[`'"]?([^\s`'"]{6,})/gi,
    valueGroup: 1,
    accept: proseSecret,
  },
];

function decodeURIComponentSafe(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** Runs Loci's rules and returns the ids of those that matched (never the values). */
export function matchSecretRules(text: string): string[] {
  const hits: string[] = [];
  for (const rule of SECRET_RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      const value = match[rule.valueGroup] ?? match[0];
      if (!rule.accept || rule.accept(value)) {
        hits.push(rule.id);
        break;
      }
    }
  }
  return hits;
}
