// Credentials in text: where they are and what kind, never what they are.
//
// The provider patterns are secretlint's (@secretlint/secretlint-rule-preset-recommend
// 13.1.0, MIT, https://github.com/secretlint/secretlint), copied rather than
// called: its rules run per file through a Promise API, cost 20-55 ms on the
// 1,000-turn benchmark file whole (370 ms called per cell), need Node 22 from
// 12.x on, and import node:path, which the browser bundle cannot load.
// Update them from that package's module/index.js; ADDED marks what it lacks.
//
// One scan finds every place a credential can start (a literal prefix or a
// keyword); each pattern then runs only there, sticky, so a text without
// candidates costs one pass of one regular expression.

export interface SecretKind {
  /** The short tag of `[REDACTED:TAG]`. */
  tag: string;
  /** What the message names: "An OpenAI API key". */
  name: string;
}

export interface FoundSecret {
  /** Offsets in the scanned text, [start, end): exactly the secret. */
  start: number;
  end: number;
  kind: SecretKind;
}

interface Detector {
  kind: SecretKind;
  /** Where a candidate starts, at the start of a word (`trigger`) or anywhere: regular expression sources without groups. */
  trigger?: string;
  anywhere?: string;
  /** Sticky at the trigger's position; group 1, when present, is the secret. */
  pattern: string;
  flags?: string;
  /** A generic pattern, whose value may be a word or a variable rather than a credential. */
  loose?: 'header' | 'url';
}

// `(?<!\p{L})` and the lookaheads keep a pattern from starting or ending inside a longer word.
const END = '(?![A-Za-z0-9_-])';
const LETTERLESS = '(?<!\\p{L})';

// AWS_SECRET_ACCESS_KEY, aws_secret_access_key, SecretAccessKey; after a prefix (TF_VAR_aws_…) it starts at a `_`.
const AWS_NAME = '(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)';

const kind = (tag: string, name: string): SecretKind => ({ tag, name });

// Providers first: where a generic pattern (a bearer header, a URL's
// password, a JWT) covers the same text, the provider's name is the better message.
const DETECTORS: readonly Detector[] = [
  { kind: kind('OPENAI_KEY', 'An OpenAI API key'), trigger: 'sk-(?!ant-|or-)', pattern: 'sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20}' },
  // ADDED: secretlint knows only `sk-ant-api0N-`; admin keys and Claude's OAuth tokens have the same shape.
  { kind: kind('ANTHROPIC_KEY', 'An Anthropic API key'), trigger: 'sk-ant-', pattern: `${LETTERLESS}sk-ant-(?:api|admin|oat|ort)\\d\\d-[A-Za-z0-9_-]{90,128}AA${END}`, flags: 'u' },
  // ADDED: OpenRouter keys, common in agent configs; not in secretlint.
  { kind: kind('OPENROUTER_KEY', 'An OpenRouter API key'), trigger: 'sk-or-', pattern: `sk-or-v1-[0-9a-f]{64}${END}` },
  // ADDED: secretlint's gcp rule reads only service-account .json and .p12 files, never API keys or tokens.
  { kind: kind('GOOGLE_KEY', 'A Google API key'), trigger: 'AIza', pattern: `(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}${END}` },
  { kind: kind('GOOGLE_OAUTH', 'A Google OAuth client secret'), trigger: 'GOCSPX-', pattern: `GOCSPX-[A-Za-z0-9_-]{28}${END}` },
  { kind: kind('GOOGLE_TOKEN', 'A Google OAuth access token'), trigger: 'ya29\\.', pattern: `(?<![A-Za-z0-9_-])ya29\\.[A-Za-z0-9_-]{30,}${END}` },
  { kind: kind('AWS_SECRET_KEY', 'An AWS secret access key'), trigger: AWS_NAME, anywhere: `_${AWS_NAME}`, pattern: `_?${AWS_NAME}_?(?:KEY|key|Key)["\']?\\s*(?::|=>|=)\\s*["\']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])` },
  { kind: kind('GITHUB_TOKEN', 'A GitHub token'), trigger: 'gh[pousr]_|github_pat_', pattern: `${LETTERLESS}(?:gh[pousr]_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])|github_pat_[A-Za-z0-9_]{82}(?![A-Za-z0-9_])|ghs_[0-9]{1,20}_[A-Za-z0-9_-]{1,1000}\\.[A-Za-z0-9_-]{1,10000}\\.[A-Za-z0-9_-]{1,1000}${END})`, flags: 'u' },
  { kind: kind('GITLAB_TOKEN', 'A GitLab access token'), trigger: 'glpat-', pattern: `${LETTERLESS}glpat-[A-Za-z0-9_-]{20,128}${END}`, flags: 'u' },
  { kind: kind('SLACK_TOKEN', 'A Slack token'), trigger: 'xox[bpaor]-|xapp-', pattern: '\\b(?:xoxb|xoxp|xapp|xoxa|xoxo|xoxr)-(?:\\d-)?(?:[a-zA-Z0-9]{1,40}-)+[a-zA-Z0-9]{1,40}\\b' },
  { kind: kind('SLACK_WEBHOOK', 'A Slack incoming webhook URL'), trigger: 'https://hooks\\.slack\\.com/', pattern: 'https://hooks\\.slack\\.com/services/T[a-zA-Z0-9]{1,40}/B[a-zA-Z0-9]{1,40}/[a-zA-Z0-9]{1,40}', flags: 'i' },
  { kind: kind('STRIPE_KEY', 'A Stripe secret key'), trigger: '[sr]k_(?:live|test)_', pattern: `${LETTERLESS}[sr]k_(?:live|test)_[a-zA-Z0-9]{24,99}(?![a-zA-Z0-9])`, flags: 'u' },
  { kind: kind('NPM_TOKEN', 'An npm access token'), trigger: 'npm_|_authToken=', pattern: `${LETTERLESS}npm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])|_authToken=([^$\\s"'][^\\s"']*)`, flags: 'u' },
  { kind: kind('SENDGRID_KEY', 'A SendGrid API key'), trigger: 'SG\\.', pattern: `${LETTERLESS}SG\\.[\\w-]{16,128}\\.[\\w-]{16,128}(?![\\w-])`, flags: 'u' },
  { kind: kind('SHOPIFY_TOKEN', 'A Shopify access token'), trigger: 'shp(?:pa|ca|at|ss)_', pattern: `${LETTERLESS}shp(?:pa|ca|at|ss)_[a-zA-Z0-9]{32,64}(?![a-zA-Z0-9])`, flags: 'u' },
  { kind: kind('GRAFANA_TOKEN', 'A Grafana token'), trigger: 'gl(?:c|sa)_', pattern: `${LETTERLESS}(?:glc_[A-Za-z0-9+/]{32,400}={0,2}(?![A-Za-z0-9+/=])|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?![A-Fa-f0-9]))`, flags: 'u' },
  { kind: kind('GROQ_KEY', 'A Groq API key'), trigger: 'gsk_', pattern: `${LETTERLESS}gsk_[a-zA-Z0-9]{52}(?![a-zA-Z0-9])`, flags: 'u' },
  { kind: kind('HUGGINGFACE_TOKEN', 'A Hugging Face access token'), trigger: 'hf_', pattern: `${LETTERLESS}hf_[a-zA-Z]{34}(?![a-zA-Z])`, flags: 'u' },
  { kind: kind('LINEAR_KEY', 'A Linear API key'), trigger: 'lin_api_', pattern: `${LETTERLESS}lin_api_[a-zA-Z0-9_]{32,128}(?![a-zA-Z0-9_])`, flags: 'u' },
  { kind: kind('NOTION_TOKEN', 'A Notion integration token'), trigger: 'ntn_', pattern: `${LETTERLESS}ntn_[0-9]{11}[A-Za-z0-9]{35}(?![A-Za-z0-9])`, flags: 'u' },
  { kind: kind('ONEPASSWORD_TOKEN', 'A 1Password service account token'), trigger: 'ops_ey', pattern: `${LETTERLESS}ops_ey[A-Za-z0-9+/=]{100,1280}fQ={0,2}(?![A-Za-z0-9+/=])`, flags: 'u' },
  { kind: kind('VAULT_TOKEN', 'A HashiCorp Vault token'), trigger: 'hv[sbr]\\.', pattern: `${LETTERLESS}(?:hv[sr]\\.[A-Za-z0-9_-]{90,120}|hvb\\.[A-Za-z0-9_-]{138,300})${END}`, flags: 'u' },
  { kind: kind('VERCEL_TOKEN', 'A Vercel token'), trigger: 'vc[pciark]_', pattern: `${LETTERLESS}vc[pciark]_[A-Za-z0-9]{20,60}(?![A-Za-z0-9])`, flags: 'u' },
  { kind: kind('DATABRICKS_TOKEN', 'A Databricks access token'), trigger: 'dapi', pattern: `${LETTERLESS}dapi[A-Fa-f0-9]{32}(?:-[0-9])?(?![A-Fa-f0-9])`, flags: 'u' },
  { kind: kind('DOCKER_TOKEN', 'A Docker access token'), trigger: 'dckr_pat_', pattern: `${LETTERLESS}dckr_pat_[a-zA-Z0-9_-]{27}${END}`, flags: 'u' },
  { kind: kind('FIGMA_TOKEN', 'A Figma access token'), trigger: 'figd_', pattern: `${LETTERLESS}figd_[A-Za-z0-9_-]{40,200}${END}`, flags: 'u' },
  { kind: kind('CLOUDFLARE_TOKEN', 'A Cloudflare API token'), trigger: 'cf(?:k|ut|at)_', pattern: `${LETTERLESS}cf(?:k|ut|at)_[A-Za-z0-9]{40}[0-9a-f]{8}(?![A-Za-z0-9])`, flags: 'u' },
  { kind: kind('TAILSCALE_KEY', 'A Tailscale key'), trigger: 'tskey-', pattern: `${LETTERLESS}tskey-[a-z]{2,20}-[0-9A-Za-z_]{8,40}-[0-9A-Za-z_]{16,60}(?![0-9A-Za-z_])`, flags: 'u' },
  // secretlint also requires the body to start as DER or OpenSSH does (MI, b3BlbnNzaC1rZXktdjE), which tells a key from a docs sample.
  { kind: kind('PRIVATE_KEY', 'A private key'), anywhere: '-----BEGIN', pattern: '-----BEGIN ?(?:(?:RSA|DSA|EC|OPENSSH|PGP|ENCRYPTED) )?PRIVATE KEY(?: BLOCK)?-----(?:\\\\n|\\s)*(?:MI|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/=\\s\\\\]{100,20000}-----END ?(?:(?:RSA|DSA|EC|OPENSSH|PGP|ENCRYPTED) )?PRIVATE KEY(?: BLOCK)?-----' },
  // ADDED: JSON Web Tokens (session and ID tokens in HTTP traces); not in secretlint.
  { kind: kind('JWT', 'A JSON Web Token'), trigger: 'eyJ', pattern: `(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{16,}${END}` },
  // ADDED: HTTP credentials, what curl -v, request logs and SDK debug output print; not in secretlint.
  { kind: kind('BEARER_TOKEN', 'A bearer token'), trigger: '[Bb]earer\\s', pattern: '[Bb]earer\\s+([A-Za-z0-9\\-._~+/]{16,}=*)(?![A-Za-z0-9\\-._~+/=])', loose: 'header' },
  { kind: kind('AUTH_HEADER', "An `Authorization` header's credentials"), trigger: '[Aa]uthorization', pattern: '[Aa]uthorization["\']?\\s*[:=]\\s*["\']?(?:(?:Basic|Token|token|Bot|Digest|Key|key)\\s+)?([A-Za-z0-9\\-._~+/]{16,}=*)(?![A-Za-z0-9\\-._~+/=])', loose: 'header' },
  // secretlint's basicauth (http, ftp) and database-connection-string (mongodb, mysql, postgres) in one: any scheme.
  { kind: kind('URL_PASSWORD', 'A password in a URL'), anywhere: '://', pattern: '://[^\\s/:@?#"\'<>]{1,256}:([^\\s/@?#"\'<>\\[\\]]{1,256})@[^\\s/@]', loose: 'url' },
];

const TRIGGER_SOURCE = DETECTORS.map((d) => `(${[d.trigger && `\\b(?:${d.trigger})`, d.anywhere].filter(Boolean).join('|')})`).join('|');
// Whether a text may hold a candidate at all. Most text has none, and two
// regular expressions without groups cost a fraction of the scan with a group
// per detector (9 against 25 ms of CPU over the 1,000-turn file's cells): one
// tries the prefixes only at the start of a word, the other finds the few
// literals allowed anywhere. Apart, not as one alternation, which tries every
// alternative at every character (33 against 22 ms over the benchmark tree's
// cells). Not global: they keep no position between calls.
const AT_WORD = new RegExp(`\\b(?:${DETECTORS.flatMap((d) => d.trigger ?? []).join('|')})`);
const ANYWHERE = new RegExp(DETECTORS.flatMap((d) => d.anywhere ?? []).join('|'));

// Documentation samples and templates: AWS's `…EXAMPLE` keys, `xxxx`,
// `****`, `<token>`, `${TOKEN}`, `{{token}}`, `your_api_key`.
const PLACEHOLDER = /example|([xX*•.])\1{3}|…|<|>|\$\{|\{\{|your[_-]?(?:api|key|token|secret|password)|redacted/i;
// Where a header or a URL holds a word or a variable rather than a credential.
const LOOSE_WORDS = /^(?:password|passwd|pass|pwd|secret|token|changeme|admin|root|user|username|undefined|null|none)$/i;

/** Whether a value a generic pattern found is a credential rather than a name or a sample. */
function credible(value: string, loose: Detector['loose']): boolean {
  if (PLACEHOLDER.test(value)) return false;
  if (loose === undefined) return true;
  if (LOOSE_WORDS.test(value) || value.startsWith('$') || value.startsWith('%')) return false;
  if (loose === 'url') return true;
  // A token has letters and digits (or base64 padding); an env var's name (OPENAI_API_KEY_2) or words (`the.bearer.scheme`) are not one.
  return /[A-Za-z]/.test(value) && (/[0-9]/.test(value) || value.endsWith('=')) && !/^[A-Z0-9_]+$/.test(value);
}

/** The credentials in `text`, in order, none overlapping another. */
export function findSecrets(text: string): FoundSecret[] {
  if (!ANYWHERE.test(text) && !AT_WORD.test(text)) return [];
  // Made per call: a global regular expression keeps its position, and a rule keeps no module state.
  const trigger = new RegExp(TRIGGER_SOURCE, 'g');
  const patterns = new Map<number, RegExp>();
  const found: (FoundSecret & { rank: number })[] = [];
  let m: RegExpExecArray | null;
  while ((m = trigger.exec(text)) !== null) {
    for (let i = 0; i < DETECTORS.length; i++) {
      if (m[i + 1] === undefined) continue;
      const d = DETECTORS[i]!;
      let re = patterns.get(i);
      // `d`: the offsets of group 1, the secret within the match.
      if (!re) patterns.set(i, (re = new RegExp(d.pattern, `dy${d.flags ?? ''}`)));
      re.lastIndex = m.index;
      const hit = re.exec(text);
      if (!hit) continue;
      const value = hit[1] ?? hit[0];
      const start = hit[1] === undefined ? hit.index : hit.indices![1]![0];
      if (credible(value, d.loose)) found.push({ start, end: start + value.length, kind: d.kind, rank: i });
      // The trigger scan goes on from the next character: a `sk-` inside a match may start nothing, but a `://` inside a URL may.
    }
    if (m[0].length === 0) trigger.lastIndex++;
  }
  found.sort((a, b) => a.start - b.start || a.rank - b.rank);
  const out: typeof found = [];
  for (const f of found) {
    const last = out.at(-1);
    if (!last || f.start >= last.end) out.push(f);
    // Overlapping finds: the provider's (earlier detector) wins over a generic one.
    else if (f.rank < last.rank) out[out.length - 1] = f;
  }
  return out.map(({ start, end, kind }) => ({ start, end, kind }));
}
