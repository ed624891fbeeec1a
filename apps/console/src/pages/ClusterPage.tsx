export default function Stub() {
  return <p>Coming</p>;
}
