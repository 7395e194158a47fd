import { i18n } from "@lingui/core";
import type { AuthForm, HttpForm } from "../../logic/actionForm";
import { HTTP_METHODS } from "../../logic/enums";
import { KeyValueEditor } from "./KeyValueEditor";
import { type Option, SecretField, SelectField, TextArea, TextField, translated } from "./fields";

type Props = { prefix: string; value: HttpForm; onChange: (v: HttpForm) => void; stored: (path: string) => boolean };

const METHODS: Option[] = HTTP_METHODS.map((m) => [m, m] as const);

export function HttpFields({ prefix: p, value, onChange, stored }: Props) {
  const set = (patch: Partial<HttpForm>) => onChange({ ...value, ...patch });
  return (
    <>
      <div class="grid method-uri">
        <SelectField
          id={`${p}http-method`}
          label={i18n._("Method")}
          value={value.method}
          options={METHODS}
          onChange={(method) => set({ method })}
        />
        <TextField
          id={`${p}http-uri`}
          label={i18n._("URL")}
          type="url"
          value={value.uri}
          placeholder={i18n._("https://example.com/hook")}
          onInput={(uri) => set({ uri })}
        />
      </div>
      <KeyValueEditor
        id={`${p}http-headers`}
        legend={i18n._("Headers")}
        labels={{
          name: (n) => i18n._("Header {n} name", { n }),
          value: (n) => i18n._("Header {n} value", { n }),
          remove: (which) => i18n._("Remove header {which}", { which }),
          add: i18n._("Add header"),
        }}
        rows={value.headers}
        onChange={(headers) => set({ headers })}
      />
      <TextArea
        id={`${p}http-body`}
        label={i18n._("Body")}
        mono
        rows={4}
        value={value.body}
        onInput={(body) => set({ body })}
      />
      <AuthFields prefix={p} value={value.auth} onChange={(auth) => set({ auth })} stored={stored} />
    </>
  );
}

const AUTH: Option[] = [
  ["", /*i18n*/ "None"],
  ["Basic", /*i18n*/ "Basic (user name and password)"],
  ["ClientCertificate", /*i18n*/ "Client certificate (PFX)"],
  ["ActiveDirectoryOAuth", /*i18n*/ "Azure AD OAuth (client credentials)"],
];

function AuthFields({
  prefix: p,
  value,
  onChange,
  stored,
}: {
  prefix: string;
  value: AuthForm;
  onChange: (v: AuthForm) => void;
  stored: (path: string) => boolean;
}) {
  const set = (patch: Partial<AuthForm>) => onChange({ ...value, ...patch });
  const path = (field: string) => `request.authentication.${field}`;
  const options = translated(
    value.type === "NotSpecified" ? [...AUTH, ["NotSpecified", /*i18n*/ "Not specified (none)"] as const] : AUTH,
  );
  const cert = value.certInfo;
  return (
    <div class="subsection">
      <SelectField
        id={`${p}auth-type`}
        label={i18n._("Authentication")}
        value={value.type}
        options={options}
        onChange={(type) => set({ type })}
      />
      {value.type === "Basic" && (
        <div class="grid">
          <TextField
            id={`${p}auth-username`}
            label={i18n._("User name")}
            value={value.username}
            onInput={(username) => set({ username })}
          />
          <SecretField
            id={`${p}auth-password`}
            label={i18n._("Password")}
            value={value.password}
            stored={stored(path("password"))}
            onInput={(password) => set({ password })}
          />
        </div>
      )}
      {value.type === "ClientCertificate" && (
        <>
          <SecretField
            id={`${p}auth-pfx`}
            label={i18n._("Certificate (PFX, base64)")}
            multiline
            value={value.pfx}
            stored={stored(path("pfx"))}
            onInput={(pfx) => set({ pfx })}
          />
          <SecretField
            id={`${p}auth-cert-password`}
            label={i18n._("Certificate password")}
            value={value.certPassword}
            stored={stored(path("password"))}
            hint={i18n._("Empty if the PFX has none.")}
            onInput={(certPassword) => set({ certPassword })}
          />
          {(cert.subject || cert.thumbprint) && (
            <p class="muted cert-info">
              {i18n._("Stored certificate: {subject}", { subject: cert.subject })}{" "}
              {cert.thumbprint && (
                <>
                  · <code>{cert.thumbprint}</code>
                </>
              )}
              {cert.expires && <> · {i18n._("expires {date}", { date: cert.expires })}</>}
            </p>
          )}
        </>
      )}
      {value.type === "ActiveDirectoryOAuth" && (
        <>
          <div class="grid">
            <TextField
              id={`${p}auth-tenant`}
              label={i18n._("Tenant")}
              value={value.tenant}
              placeholder={i18n._("contoso.onmicrosoft.com")}
              onInput={(tenant) => set({ tenant })}
            />
            <TextField
              id={`${p}auth-audience`}
              label={i18n._("Audience")}
              value={value.audience}
              placeholder={i18n._("https://management.core.windows.net/")}
              onInput={(audience) => set({ audience })}
            />
          </div>
          <div class="grid">
            <TextField
              id={`${p}auth-client-id`}
              label={i18n._("Client id")}
              value={value.clientId}
              onInput={(clientId) => set({ clientId })}
            />
            <SecretField
              id={`${p}auth-secret`}
              label={i18n._("Client secret")}
              value={value.secret}
              stored={stored(path("secret"))}
              onInput={(secret) => set({ secret })}
            />
          </div>
        </>
      )}
    </div>
  );
}
