// A static picture of the product for the landing page. The numbers are illustrative and labelled as such.

const sampleStats = [
  { label: 'Total Followers', value: '128.4K', change: '+4.2%' },
  { label: 'Engagement Rate', value: '5.8%', change: '+0.6%' },
  { label: 'Connected Platforms', value: '4', change: '+1 this month' },
];

const sampleGrowth = [38, 44, 41, 52, 58, 55, 63, 70, 68, 77, 84, 92];

const samplePlatforms = [
  { name: 'YouTube', followers: '64.2K', label: 'subscribers', share: 50 },
  { name: 'Instagram', followers: '38.5K', label: 'followers', share: 30 },
  { name: 'TikTok', followers: '21.9K', label: 'followers', share: 17 },
  { name: 'Patreon', followers: '3.8K', label: 'patrons', share: 3 },
];

export function SampleDashboard() {
  return (
    <figure className="overflow-hidden rounded-2xl border border-slate-700 bg-slate-900 shadow-2xl shadow-indigo-950/50">
      <div className="flex items-center justify-between border-b border-slate-800 bg-slate-950/60 px-4 py-2.5">
        <div className="flex gap-1.5" aria-hidden="true">
          <span className="size-2.5 rounded-full bg-slate-700" />
          <span className="size-2.5 rounded-full bg-slate-700" />
          <span className="size-2.5 rounded-full bg-slate-700" />
        </div>
        <span className="rounded-full bg-amber-500/15 px-2.5 py-0.5 text-xs font-semibold text-amber-200 ring-1 ring-amber-500/40">
          Preview · sample data
        </span>
      </div>

      <div className="space-y-4 p-4 sm:p-5">
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {sampleStats.map((stat) => (
            <div key={stat.label} className="rounded-lg border border-slate-800 bg-slate-950/60 p-3">
              <dt className="text-xs text-slate-400">{stat.label}</dt>
              <dd className="mt-1 text-xl font-bold text-white">{stat.value}</dd>
              <dd className="truncate text-xs text-emerald-300">{stat.change}</dd>
            </div>
          ))}
        </dl>

        <div className="grid gap-3 sm:grid-cols-5">
          <div className="rounded-lg border border-slate-800 bg-slate-950/60 p-3 sm:col-span-3">
            <p className="text-xs font-medium text-slate-300">Followers Growth (sample)</p>
            <div className="mt-3 flex h-28 items-end gap-1.5" aria-hidden="true">
              {sampleGrowth.map((value, index) => (
                <div
                  key={index}
                  className="flex-1 rounded-t bg-linear-to-t from-indigo-600 to-sky-400"
                  style={{ height: `${value}%` }}
                />
              ))}
            </div>
          </div>
          <div className="rounded-lg border border-slate-800 bg-slate-950/60 p-3 sm:col-span-2">
            <p className="text-xs font-medium text-slate-300">Platforms (sample)</p>
            <ul className="mt-2 space-y-2">
              {samplePlatforms.map((platform) => (
                <li key={platform.name} className="text-xs">
                  <div className="flex justify-between gap-2 text-slate-300">
                    <span>{platform.name}</span>
                    <span className="text-slate-400">
                      {platform.followers} {platform.label}
                    </span>
                  </div>
                  <div className="mt-1 h-1.5 rounded-full bg-slate-800" aria-hidden="true">
                    <div className="h-1.5 rounded-full bg-indigo-400" style={{ width: `${platform.share}%` }} />
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
      <figcaption className="border-t border-slate-800 px-4 py-2 text-center text-xs text-slate-400">
        Illustrative preview of the Analytics Hub dashboard. Your own numbers appear once you connect your accounts.
      </figcaption>
    </figure>
  );
}
