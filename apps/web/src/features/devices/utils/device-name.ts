/** A browser and operating system read from a user-agent string, as display names. */
export interface BrowserPlatform {
  browser: string;
  os: string;
}

/** Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari", iOS also says "Mac OS X". */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  // Headless Chrome says "HeadlessChrome/", with no word boundary before "Chrome".
  [/(?:\b|Headless)(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/**
 * The browser and system of a user agent, e.g. Chrome and Linux for a desktop Chrome on Linux. Unknown parts
 * come back as empty strings, so the caller decides how to name them.
 */
export function browserPlatform(userAgent: string): BrowserPlatform {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? '';
  const os = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? '';
  return { browser, os };
}
