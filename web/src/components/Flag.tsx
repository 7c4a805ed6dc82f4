const flags = import.meta.glob<string>('../../../node_modules/flag-icons/flags/4x3/*.svg', {
  query: '?url',
  import: 'default',
  eager: true,
});

const byCode = new Map<string, string>();
for (const [path, url] of Object.entries(flags)) {
  const code = /([a-z-]+)\.svg$/.exec(path)?.[1];
  if (code) byCode.set(code.toUpperCase(), url);
}

/** A country's flag image (decorative: the name is always next to it); a globe for regions. */
export function Flag({ code, size = 'md' }: { code: string; size?: 'md' | 'lg' }) {
  const url = byCode.get(code.toUpperCase());
  const className = `flag flag-${size}`;
  if (!url) {
    return (
      <span className={`${className} flag-region`} aria-hidden="true">
        <svg viewBox="0 0 24 24" width="100%" height="100%">
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <path
            d="M2 12h20M12 2c3 3.2 3 16.8 0 20M12 2c-3 3.2-3 16.8 0 20"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
          />
        </svg>
      </span>
    );
  }
  return (
    <img className={className} src={url} alt="" loading="lazy" decoding="async" width="32" height="24" />
  );
}
