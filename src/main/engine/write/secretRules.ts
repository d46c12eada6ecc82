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
  /**
   * Extra check on the value (strength, shape); true means "this is a secret". Without
   * one, the value must not be a placeholder (`ghp_xxxx…`, `xoxb-your-bot-token`).
   */
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

/** Code that reads a secret from somewhere else rather than holding it. */
const ENV_LOOKUP =
  /^(?:os\.environ|os\.getenv|process\.env|import\.meta\.env|System\.getenv|Environment\.GetEnvironmentVariable|getenv\(|ENV\[|ENV\.fetch|env\(|secrets\.|vault\()/i;

/** True for values that stand in for a secret rather than being one. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v.length === 0) return true;
  if (PLACEHOLDER_EXACT.has(v.toLowerCase())) return true;
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(v)) return true; // $VAR, ${VAR}
  if (/^\$\(.*\)$/.test(v)) return true; // $(command)
  if (/^%[A-Za-z_][A-Za-z0-9_]*%$/.test(v)) return true; // %VAR%
  if (ENV_LOOKUP.test(v)) return true; // os.environ["X"], process.env.X, getenv("X")
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

/** A value on a command line (`curl -u user:…`, `--password …`): not a variable, not a number. */
function commandLineSecret(v: string): boolean {
  return !isPlaceholder(v) && v.length >= 4 && !/^\d+$/.test(v) && !v.startsWith('$');
}

/** A bare token in prose after "secret"/"token"/"key": long, mixed, random-looking. */
function strongToken(v: string): boolean {
  return !isPlaceholder(v) && v.length >= 20 && classes(v) >= 3 && entropy(v) >= 3.5;
}

/** A password written in prose must look like one: two character classes at least. */
function proseSecret(value: string): boolean {
  // Sentence punctuation after the word is not part of it ("… is strict: twelve …").
  const v = value.replace(/[.,;:!?)]+$/, '');
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
    // The header alone is not a key (`<paste your key here>`): key material must follow
    // within a few lines (after any Proc-Type/DEK-Info/Version headers).
    pattern: /-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----([\s\S]{0,400})/g,
    valueGroup: 1,
    accept: (v) => /[A-Za-z0-9+/]{32}/.test(v),
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
    id: 'azure-sas-signature',
    description: 'Azure shared access signature in a URL (…&sig=…)',
    pattern: /[?&]sig=([A-Za-z0-9%+/_-]{30,200}(?:=|%3[dD]){0,2})/g,
    valueGroup: 1,
  },
  {
    id: 'digitalocean-token',
    description: 'DigitalOcean token (dop_v1_, doo_v1_, dor_v1_)',
    pattern: /\b(do[opr]_v1_[a-f0-9]{64})\b/g,
    valueGroup: 1,
  },
  {
    id: 'telegram-bot-token',
    description: 'Telegram bot token (123456789:AA…), also inside api.telegram.org/bot… URLs',
    pattern: /(?<!\d)(\d{6,12}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/g,
    valueGroup: 1,
  },
  {
    id: 'mailgun-api-key',
    description: 'Mailgun API key (key-…)',
    pattern: /\b(key-[0-9a-f]{32})\b/g,
    valueGroup: 1,
  },
  {
    id: 'discord-bot-token',
    description: 'Discord bot token (three dot-separated base64url parts)',
    pattern:
      /\b([MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40})(?![A-Za-z0-9_-])/g,
    valueGroup: 1,
  },
  {
    id: 'discord-webhook',
    description: 'Discord webhook URL',
    pattern:
      /(https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{40,100})/g,
    valueGroup: 1,
  },
  {
    id: 'atlassian-api-token',
    description: 'Atlassian (Jira, Confluence) API token (ATATT3x…)',
    pattern: /\b(ATATT3x[A-Za-z0-9_=-]{80,300})/g,
    valueGroup: 1,
  },
  {
    id: 'notion-token',
    description: 'Notion integration token (ntn_…, secret_…)',
    pattern: /\b(ntn_[A-Za-z0-9]{40,60}|secret_[A-Za-z0-9]{43})\b/g,
    valueGroup: 1,
  },
  {
    id: 'vault-token',
    description: 'HashiCorp Vault token (hvs., hvb., hvr.)',
    pattern: /\b(hv[sbr]\.[A-Za-z0-9_-]{24,300})/g,
    valueGroup: 1,
  },
  {
    id: 'fcm-server-key',
    description: 'Firebase Cloud Messaging server key (AAAA…:APA91b…)',
    pattern: /\b(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200})/g,
    valueGroup: 1,
  },
  {
    id: 'age-secret-key',
    description: 'age encryption secret key (AGE-SECRET-KEY-1…)',
    pattern: /\b(AGE-SECRET-KEY-1[0-9A-Z]{58})\b/g,
    valueGroup: 1,
  },
  {
    id: 'kubeconfig-client-key',
    description: 'Client key in a kubeconfig (client-key-data: …)',
    pattern: /\bclient-key-data:\s{0,20}([A-Za-z0-9+/=]{40,})/g,
    valueGroup: 1,
  },
  {
    id: 'command-line-user-password',
    description: 'user:password on a command line (curl -u, --user)',
    pattern: /(?:^|\s)(?:-u|--user)(?:\s{1,10}|=)['"]?[^\s:'"]{1,100}:([^\s'"]{1,200})/g,
    valueGroup: 1,
    accept: commandLineSecret,
  },
  {
    id: 'command-line-password',
    description:
      'A password given to a command (--password …, mysql -p…, sshpass -p, docker login -p)',
    pattern:
      /(?:(?:^|\s)--password(?:=|\s{1,10})|\bmysql(?:dump|admin)?\b[^\n]{0,200}?\s-p(?=[^\s-])|\bsshpass\s{1,10}-p\s{0,10}|\bdocker\s{1,10}login\b[^\n]{0,200}?\s-p\s{1,10})['"]?([^\s'"]{1,200})/g,
    valueGroup: 1,
    accept: commandLineSecret,
  },
  {
    id: 'netrc-password',
    description: 'A .netrc entry (machine … login … password …)',
    pattern:
      /\bmachine\s{1,10}\S{1,200}\s{1,10}login\s{1,10}\S{1,200}\s{1,10}password\s{1,10}(\S{1,200})/g,
    valueGroup: 1,
    accept: commandLineSecret,
  },
  {
    id: 'token-in-prose',
    description: 'A long random token right after "secret", "token" or "API key" in prose',
    pattern:
      /\b(?:secret|token|api[ _-]?key)\s{1,5}(?:(?:is|was)\s{1,5}|[:=]\s{0,5})?[`'"]?([A-Za-z0-9_+/=.~-]{20,200})/gi,
    valueGroup: 1,
    accept: strongToken,
  },
  {
    id: 'url-with-password',
    description: 'Connection string or URL with an inline password (postgres://user:pass@host)',
    // The user may be empty (`redis://:password@host`).
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@'"]{0,200}:([^\s@/'"]{1,500})@[^\s/'"?#]/gi,
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
    description: 'API-key header (X-API-Key, Api-Key, X-Auth-Token, X-Auth-Key, Private-Token)',
    pattern:
      /\b(?:x-api-key|api-key|x-auth-token|x-auth-key|private-token)["']?\s*:\s*["']?([A-Za-z0-9._~+/=-]{12,})/gi,
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
    // "password: …", "pw = …", and "the password for the shared account is …".
    pattern:
      /\b(?:password|passwd|passphrase|pwd|pw)\b(?:[^.\n:=]{0,40}?\s(?:is|was)\s+|\s*[:=]\s*)[`'"]?([^\s`'"]{6,})/gi,
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

/** Where a credential sits in a text: offsets of the value (not its key or label). */
export interface SecretSpan {
  rule: string;
  start: number;
  end: number;
}

/**
 * Where Loci's rules match: the value of each match, so it can be masked on screen or
 * redacted. Offsets only; the caller holds the text.
 */
export function matchSecretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const rule of SECRET_RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      const value = match[rule.valueGroup] ?? match[0];
      if (!(rule.accept ?? notPlaceholder)(value)) continue;
      const at = rule.valueGroup === 0 ? 0 : match[0].lastIndexOf(value);
      const start = (match.index ?? 0) + Math.max(0, at);
      spans.push({ rule: rule.id, start, end: start + value.length });
    }
  }
  return spans;
}

/** Runs Loci's rules and returns the ids of those that matched (never the values). */
export function matchSecretRules(text: string): string[] {
  const hits: string[] = [];
  for (const rule of SECRET_RULES) {
    // Most texts match no rule: a test() costs a third of what matchAll does (which
    // copies the pattern) and tells which rules need their matches read.
    rule.pattern.lastIndex = 0;
    const maybe = rule.pattern.test(text);
    rule.pattern.lastIndex = 0;
    if (!maybe) continue;
    for (const match of text.matchAll(rule.pattern)) {
      const value = match[rule.valueGroup] ?? match[0];
      if ((rule.accept ?? notPlaceholder)(value)) {
        hits.push(rule.id);
        break;
      }
    }
  }
  return hits;
}
