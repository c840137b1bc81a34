import { useState } from 'react';
import { Link } from 'react-router';
import { LogoMark } from '../../../components/logo';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useStartTrial } from '../hooks/use-start-trial';
import { featureIcons } from './feature-icons';
import { ProductTourDialog } from './product-tour-dialog';
import { SampleDashboard } from './sample-dashboard';

const features = [
  {
    title: 'Real-time Analytics',
    text: 'Followers, views and engagement refreshed from every connected account, so you always see current numbers.',
    icon: featureIcons.realtime,
  },
  {
    title: 'Multi-Platform Support',
    text: 'YouTube, Instagram, TikTok, Twitter, LinkedIn and Patreon side by side in one dashboard.',
    icon: featureIcons.platforms,
  },
  {
    title: 'Growth Insights',
    text: 'Spot what is working: follower growth, top content and AI-generated recommendations for your videos.',
    icon: featureIcons.growth,
  },
  {
    title: 'Automated Reports',
    text: 'Daily reports on your performance, delivered without lifting a finger, and exports in multiple formats.',
    icon: featureIcons.reports,
  },
  {
    title: 'Audience Analytics',
    text: 'Understand who watches: demographics, traffic sources and retention across your channels.',
    icon: featureIcons.audience,
  },
  {
    title: 'Secure & Private',
    text: 'Accounts connect through each platform’s official sign-in. Your tokens are encrypted and your data is never sold.',
    icon: featureIcons.secure,
  },
];

const planFeatures = [
  'Unlimited platform connections',
  'Real-time analytics and insights',
  'Daily automated reports',
  'Growth insights',
  'Export in multiple formats',
  'Email and chat support',
  '7-day free trial',
];

const navLinkClasses = 'rounded px-2 py-1 text-sm text-slate-300 hover:text-white';

/** The public landing page (spec section 2, Landing). */
export function LandingPage() {
  const [tourOpen, setTourOpen] = useState(false);
  const { startTrial, redirecting } = useStartTrial();
  const trialIcon = redirecting ? <Spinner /> : null;

  return (
    <div className="min-h-screen bg-slate-950">
      <title>Analytics Hub · All your social media analytics in one place</title>
      <a
        href="#main"
        className="sr-only rounded bg-indigo-600 px-3 py-2 text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>

      <header className="sticky top-0 z-40 border-b border-slate-800/80 bg-slate-950/90 backdrop-blur">
        <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-3 sm:px-6">
          <Link to="/" className="flex items-center gap-2 rounded font-semibold text-white">
            <LogoMark className="size-8" />
            <span className="hidden sm:inline">Analytics Hub</span>
            <span className="sr-only sm:hidden">Analytics Hub</span>
          </Link>
          <div className="flex items-center gap-0.5 sm:gap-4">
            <a href="#features" className={navLinkClasses}>
              Features
            </a>
            <a href="#pricing" className={navLinkClasses}>
              Pricing
            </a>
            <a href="#about" className={navLinkClasses}>
              About
            </a>
            <Link to="/login" className={buttonClasses('secondary', 'sm', 'ml-1 sm:ml-2')}>
              Sign In
            </Link>
          </div>
        </nav>
      </header>

      <main id="main">
        <section className="relative overflow-hidden" aria-labelledby="hero-title">
          {/* The glow reaches transparent at its box's sides and bottom (farthest-side): it used to end in a visible edge. */}
          <div className="pointer-events-none absolute inset-x-0 top-0 -z-0 h-[32rem] bg-radial-[ellipse_farthest-side_at_50%_0%] from-indigo-900/40 to-transparent" aria-hidden="true" />
          <div className="relative mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:py-24">
            <div>
              <p className="inline-flex rounded-full border border-indigo-400/30 bg-indigo-500/10 px-3 py-1 text-sm text-indigo-200">
                Trusted by 10,000+ creators
              </p>
              <h1 id="hero-title" className="mt-5 text-4xl font-bold tracking-tight text-white sm:text-5xl">
                All your social media analytics in one place
              </h1>
              <p className="mt-5 text-lg text-slate-300">
                Track followers, views, engagement and revenue across YouTube, Instagram, TikTok, Twitter, LinkedIn and
                Patreon. One dashboard, built for creators and businesses.
              </p>
              <div className="mt-8 flex flex-col gap-3 sm:flex-row">
                <Button size="lg" onClick={() => void startTrial()} disabled={redirecting}>
                  {trialIcon}
                  Start 7-Day Free Trial
                </Button>
                <Button size="lg" variant="secondary" onClick={() => setTourOpen(true)} aria-haspopup="dialog">
                  <svg className="size-5" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
                    <path d="M8 5.5v13l11-6.5z" />
                  </svg>
                  Watch Demo
                </Button>
              </div>
              <p className="mt-4 text-sm text-slate-400">$20/month after the trial. Cancel anytime.</p>
            </div>
            <SampleDashboard />
          </div>
        </section>

        <section id="features" aria-labelledby="features-title" className="scroll-mt-20 border-t border-slate-800/80 py-20">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="mx-auto max-w-2xl text-center">
              <h2 id="features-title" className="text-3xl font-bold text-white">
                Everything you need to grow
              </h2>
              <p className="mt-3 text-slate-400">
                Stop switching between six dashboards. Analytics Hub brings your numbers together and tells you what they
                mean.
              </p>
            </div>
            <ul className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              {features.map((feature) => (
                <li key={feature.title} className="rounded-xl border border-slate-800 bg-slate-900 p-6">
                  <div className="flex size-11 items-center justify-center rounded-lg bg-indigo-500/15 text-indigo-300">
                    {feature.icon}
                  </div>
                  <h3 className="mt-4 text-lg font-semibold text-white">{feature.title}</h3>
                  <p className="mt-2 text-sm text-slate-400">{feature.text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 border-t border-slate-800/80 py-20">
          <div className="mx-auto max-w-6xl px-4 sm:px-6">
            <div className="mx-auto max-w-2xl text-center">
              <h2 id="pricing-title" className="text-3xl font-bold text-white">
                Simple, transparent pricing
              </h2>
              <p className="mt-3 text-slate-400">One plan with everything included.</p>
            </div>
            <div className="mx-auto mt-12 max-w-md rounded-2xl border border-indigo-500/50 bg-slate-900 p-8 shadow-xl shadow-indigo-950/40">
              <h3 className="text-lg font-semibold text-indigo-200">Pro</h3>
              <p className="mt-3 flex items-baseline gap-1">
                <span className="text-5xl font-bold text-white">$20</span>
                <span className="text-slate-400">/month</span>
              </p>
              <ul className="mt-6 space-y-3">
                {planFeatures.map((item) => (
                  <li key={item} className="flex items-start gap-3 text-slate-200">
                    <span className="mt-0.5 text-emerald-400">{featureIcons.check}</span>
                    {item}
                  </li>
                ))}
              </ul>
              <Button size="lg" className="mt-8 w-full" onClick={() => void startTrial()} disabled={redirecting}>
                {trialIcon}
                Get Started
              </Button>
              <p className="mt-3 text-center text-sm text-slate-400">Cancel anytime. No setup fees.</p>
            </div>
          </div>
        </section>

        <section id="about" aria-labelledby="about-title" className="scroll-mt-20 border-t border-slate-800/80 py-20">
          <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
            <h2 id="about-title" className="text-3xl font-bold text-white">
              About Analytics Hub
            </h2>
            <p className="mt-4 text-slate-300">
              Analytics Hub is for creators and businesses who publish on more than one platform. Connect your accounts
              once and see followers, views, engagement and revenue side by side, with a deeper look at your YouTube
              channel: per-video performance, audience, retention and revenue.
            </p>
          </div>
        </section>

        <section aria-labelledby="cta-title" className="border-t border-slate-800/80 py-20">
          <div className="mx-auto max-w-4xl px-4 sm:px-6">
            <div className="rounded-2xl bg-linear-to-br from-indigo-700 to-violet-800 px-6 py-12 text-center">
              <h2 id="cta-title" className="text-3xl font-bold text-white">
                Ready to grow your audience?
              </h2>
              <p className="mx-auto mt-3 max-w-xl text-indigo-100">
                Join 10,000+ creators who track their growth with Analytics Hub. Try it free for 7 days.
              </p>
              <button
                type="button"
                onClick={() => void startTrial()}
                disabled={redirecting}
                className="mt-8 inline-flex items-center justify-center gap-2 rounded-lg bg-white px-6 py-3 font-semibold text-indigo-800 transition-colors hover:bg-indigo-50 disabled:cursor-not-allowed disabled:opacity-60"
              >
                {trialIcon}
                Start Your Free Trial
              </button>
            </div>
          </div>
        </section>
      </main>

      <footer className="border-t border-slate-800/80">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-slate-400 sm:flex-row sm:px-6">
          <p className="flex items-center gap-2">
            <LogoMark className="size-6" />
            <span>© {new Date().getFullYear()} Analytics Hub. All rights reserved.</span>
          </p>
          <p>Made for creators who publish everywhere.</p>
        </div>
      </footer>

      <ProductTourDialog open={tourOpen} onClose={() => setTourOpen(false)} />
    </div>
  );
}
