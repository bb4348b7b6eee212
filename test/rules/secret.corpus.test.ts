// secret: a corpus of credentials in each provider's documented format, and
// of text that only looks like one. The credentials are made here from a
// fixed pseudo-random sequence, so that no key-shaped literal sits in the
// repository for a secret scanner to flag, and none is anybody's key.
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../rules/secret/detect.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const LETTERS = ALNUM.slice(0, 52);
const HEX = '0123456789abcdef';
const B64 = ALNUM + '+/';

let seed = 7;
/** `n` characters of `alphabet`, from a fixed sequence (the same on every run). */
function chars(n: number, alphabet = ALNUM): string {
  let out = '';
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    out += alphabet[(seed >>> 8) % alphabet.length];
  }
  return out;
}

/** [what, the text around it, the secret, its tag]: `text` holds `secret` once. */
type Case = [string, string, string, string];
const secretIn = (what: string, tag: string, secret: string, before = 'value: ', after = '\n'): Case => [what, before + secret + after, secret, tag];

const pem = (type: string) =>
  `-----BEGIN ${type}PRIVATE KEY-----\nMII${chars(64, B64)}\n${chars(64, B64)}\n${chars(40, B64)}==\n-----END ${type}PRIVATE KEY-----`;
const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${chars(40, ALNUM + '_-')}.${chars(43, ALNUM + '_-')}`;

// Formats as the providers document them (the secretlint rule each comes from, or ADDED, says rules/secret/detect.ts).
const TRUE_CASES: Case[] = [
  secretIn('an OpenAI project key (sk-proj-…T3BlbkFJ…)', 'OPENAI_KEY', `sk-proj-${chars(74)}T3BlbkFJ${chars(74)}`),
  secretIn('an OpenAI legacy key (sk-…T3BlbkFJ…)', 'OPENAI_KEY', `sk-${chars(20)}T3BlbkFJ${chars(20)}`),
  secretIn('an Anthropic API key (sk-ant-api03-, 108 characters)', 'ANTHROPIC_KEY', `sk-ant-api03-${chars(93, ALNUM + '_-')}AA`),
  secretIn('an Anthropic admin key (sk-ant-admin01-)', 'ANTHROPIC_KEY', `sk-ant-admin01-${chars(93)}AA`),
  secretIn('an OpenRouter key (sk-or-v1-, 64 hex)', 'OPENROUTER_KEY', `sk-or-v1-${chars(64, HEX)}`),
  secretIn('a Google API key (AIza, 39 characters)', 'GOOGLE_KEY', `AIza${chars(35, ALNUM + '_-')}`, 'https://maps.googleapis.com/x?key='),
  secretIn('a Google OAuth client secret (GOCSPX-)', 'GOOGLE_OAUTH', `GOCSPX-${chars(28)}`),
  secretIn('a Google OAuth access token (ya29.)', 'GOOGLE_TOKEN', `ya29.${chars(60, ALNUM + '_-')}`),
  secretIn('an AWS secret access key in ~/.aws/credentials', 'AWS_SECRET_KEY', chars(40, B64), 'aws_secret_access_key = '),
  secretIn('an AWS secret access key in an env dump', 'AWS_SECRET_KEY', chars(40, B64), 'AWS_SECRET_ACCESS_KEY='),
  secretIn('a GitHub classic token (ghp_)', 'GITHUB_TOKEN', `ghp_${chars(36)}`),
  secretIn('a GitHub fine-grained token (github_pat_)', 'GITHUB_TOKEN', `github_pat_${chars(22)}_${chars(59)}`),
  secretIn('a GitLab personal access token (glpat-)', 'GITLAB_TOKEN', `glpat-${chars(20)}`),
  secretIn('a Slack bot token (xoxb-)', 'SLACK_TOKEN', `xoxb-${chars(12, HEX.slice(0, 10))}-${chars(13, HEX.slice(0, 10))}-${chars(24)}`),
  secretIn('a Slack incoming webhook', 'SLACK_WEBHOOK', `https://hooks.slack.com/services/T${chars(8)}/B${chars(8)}/${chars(24)}`),
  secretIn('a Stripe live secret key (sk_live_)', 'STRIPE_KEY', `sk_live_${chars(24)}`),
  secretIn('a Stripe test restricted key (rk_test_)', 'STRIPE_KEY', `rk_test_${chars(99)}`),
  secretIn('an npm access token (npm_)', 'NPM_TOKEN', `npm_${chars(36)}`),
  secretIn('an .npmrc auth token', 'NPM_TOKEN', chars(36, HEX + '-'), '//registry.example.org/:_authToken='),
  secretIn('a SendGrid key (SG.x.y)', 'SENDGRID_KEY', `SG.${chars(22)}.${chars(43)}`),
  secretIn('a Shopify access token (shpat_)', 'SHOPIFY_TOKEN', `shpat_${chars(32, HEX)}`),
  secretIn('a Grafana service account token (glsa_)', 'GRAFANA_TOKEN', `glsa_${chars(32)}_${chars(8, HEX)}`),
  secretIn('a Groq key (gsk_)', 'GROQ_KEY', `gsk_${chars(52)}`),
  secretIn('a Hugging Face token (hf_)', 'HUGGINGFACE_TOKEN', `hf_${chars(34, LETTERS)}`),
  secretIn('a Linear API key (lin_api_)', 'LINEAR_KEY', `lin_api_${chars(40)}`),
  secretIn('a Notion token (ntn_)', 'NOTION_TOKEN', `ntn_${chars(11, '0123456789')}${chars(35)}`),
  secretIn('a HashiCorp Vault token (hvs.)', 'VAULT_TOKEN', `hvs.${chars(95)}`),
  secretIn('a Vercel token (vcp_)', 'VERCEL_TOKEN', `vcp_${chars(24)}`),
  secretIn('a Databricks token (dapi)', 'DATABRICKS_TOKEN', `dapi${chars(32, HEX)}`),
  secretIn('a Docker access token (dckr_pat_)', 'DOCKER_TOKEN', `dckr_pat_${chars(27)}`),
  secretIn('a Figma token (figd_)', 'FIGMA_TOKEN', `figd_${chars(40)}`),
  secretIn('a Cloudflare API token (cfut_)', 'CLOUDFLARE_TOKEN', `cfut_${chars(40)}${chars(8, HEX)}`),
  secretIn('a Tailscale auth key (tskey-auth-)', 'TAILSCALE_KEY', `tskey-auth-${chars(16)}-${chars(32)}`),
  secretIn('an RSA private key block', 'PRIVATE_KEY', pem('RSA '), '', '\n'),
  secretIn('a PKCS#8 private key block', 'PRIVATE_KEY', pem(''), 'cat key.pem\n', '\n'),
  secretIn('a private key in JSON, its line breaks escaped', 'PRIVATE_KEY', pem('').replace(/\n/g, '\\n'), '"private_key": "', '\\n"'),
  secretIn('a JWT', 'JWT', jwt, 'id_token=', '&state=1'),
  secretIn('a bearer token in a curl header', 'BEARER_TOKEN', chars(32), 'curl -H "Authorization: Bearer ', '" https://api.example.org'),
  secretIn('a bearer token in JSON headers', 'BEARER_TOKEN', chars(40, ALNUM + '-._'), '{"authorization": "Bearer ', '"}'),
  secretIn('Basic credentials in an Authorization header', 'AUTH_HEADER', 'dXNlcjpodW50ZXIy', 'Authorization: Basic ', '\n'),
  secretIn('a token in an Authorization header without a scheme', 'AUTH_HEADER', `${chars(30)}9`, 'Authorization: '),
  secretIn('a password in a database URL', 'URL_PASSWORD', 'Zq8vR2mK7pLx', 'DATABASE_URL=postgres://app:', '@db.internal:5432/app'),
  secretIn('a password in an https URL', 'URL_PASSWORD', 'hunter2hunter', 'git clone https://deploy:', '@git.example.org/repo.git'),
];

const FALSE_CASES: [string, string][] = [
  ["AWS's documented example key id", 'AKIAIOSFODNN7EXAMPLE'],
  ["AWS's documented example secret key", 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  ['an AWS access key id alone (an identifier, not a credential)', `AKIA${chars(16, ALNUM.slice(0, 26) + '234567')}`],
  ['a placeholder of x', 'OPENAI_API_KEY=sk-proj-xxxxxxxxxxxxxxxxxxxx and ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
  ['a placeholder of stars', `Authorization: Bearer ****************${chars(4)}1`],
  ["Slack's documented webhook example", 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
  ['a SHA-256 digest', `sha256:${chars(64, HEX)}`],
  ['a git commit hash', `commit ${chars(40, HEX)}`],
  ['a UUID', `request id 123e4567-e89b-12d3-a456-426614174000`],
  ['a tool call nonce and an id', '## %%% Tool call[^2.k7f3q]\n[^2.k7f3q]: [tool] name="read_file"'],
  ['code that names the variable', 'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)'],
  ['a header built from a variable', 'headers = {"Authorization": f"Bearer {api_key}"}'],
  ['a header from the shell', 'curl -H "Authorization: Bearer $OPENAI_API_KEY" https://api.openai.com/v1/models'],
  ['a header with an env var in a template', 'Authorization: Bearer ${GITHUB_TOKEN}'],
  ['a header with a placeholder', 'Authorization: Bearer <your-token-here>\nAuthorization: Bearer YOUR_API_KEY_HERE'],
  ['prose about bearer tokens', 'Bearer tokens go in the Authorization header; the Authorization: header carries them.'],
  ['a URL with a placeholder password', 'postgres://user:password@localhost:5432/db and https://u:${DB_PASSWORD}@host/x'],
  ['URLs without a password', 'ssh://git@github.com/org/repo.git https://github.com:443/org git@github.com:org/repo.git'],
  ['a redacted secret', 'Authorization: Bearer [REDACTED:BEARER_TOKEN] and https://app:[REDACTED:URL_PASSWORD]@db/x'],
  ['an elided private key in documentation', '-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----'],
  ['a public key', `-----BEGIN PUBLIC KEY-----\nMII${chars(200, B64)}\n-----END PUBLIC KEY-----`],
  ['words that share a prefix', 'task-runner sk-learn glpat- hf_ npm_install dapi and a SG.x.y sentence'],
  ['base64 text without a key prefix', chars(400, B64)],
];

describe('secret detector corpus', () => {
  it.each(TRUE_CASES)('finds %s', (_what, text, secret, tag) => {
    const found = findSecrets(text);
    expect(found.map((f) => [text.slice(f.start, f.end), f.kind.tag])).toEqual([[secret, tag]]);
  });

  it.each(FALSE_CASES)('finds nothing in %s', (_what, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('names the provider, not the header, when both cover a key', () => {
    const key = `sk-proj-${chars(58)}T3BlbkFJ${chars(58)}`;
    const text = `curl -H "Authorization: Bearer ${key}"`;
    expect(findSecrets(text).map((f) => [text.slice(f.start, f.end), f.kind.tag])).toEqual([[key, 'OPENAI_KEY']]);
    const url = `https://x-access-token:ghs_${chars(36)}@github.com/org/repo`;
    expect(findSecrets(url).map((f) => f.kind.tag)).toEqual(['GITHUB_TOKEN']);
    const bearerJwt = `Authorization: Bearer ${jwt}`;
    expect(findSecrets(bearerJwt).map((f) => f.kind.tag)).toEqual(['JWT']);
  });

  it('finds several secrets in one text, in order', () => {
    const a = `ghp_${chars(36)}`;
    const b = `glpat-${chars(24)}`;
    const text = `GH=${a}\nGL=${b}\nGH2=${a}\n`;
    expect(findSecrets(text).map((f) => text.slice(f.start, f.end))).toEqual([a, b, a]);
  });

  it('has a case for every kind it names', () => {
    const tags = new Set(TRUE_CASES.map((c) => c[3]));
    expect(tags.size).toBeGreaterThanOrEqual(30);
  });
});
