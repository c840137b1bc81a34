export function LogoMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#4f46e5" />
      <path d="M8 22V14M14 22V9M20 22v-6M26 22V12" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
