//! The traces of RFC 3492 sections 7.2 and 7.3, reproduced line by line by
//! the clean-room code, and every intermediate state checked against the C
//! reference.

use punycheck::c_reference;
use punycheck::punycode::{self, DELIMITER};
use punycheck::rfc_text::{
    RFC3492_TEXT, render_decoding_trace, render_encoding_trace, samples, traces,
};

fn sample_code_points(id: char) -> Vec<u32> {
    let sample = samples(RFC3492_TEXT)
        .into_iter()
        .find(|s| s.id == id)
        .expect("sample exists");
    sample.code_points.iter().map(|c| c.0).collect()
}

#[test]
fn rfc_traces_are_reproduced_line_by_line() {
    let traces = traces(RFC3492_TEXT);
    assert_eq!(traces.len(), 4);
    for trace in traces {
        let code_points = sample_code_points(trace.sample);
        let ours = if trace.decoding {
            // The trace decodes the sample's Punycode, as the C reference computes it.
            let punycode = c_reference::encode(&code_points, None).unwrap();
            render_decoding_trace(&punycode)
        } else {
            render_encoding_trace(&code_points)
        };
        let kind = if trace.decoding {
            "decoding"
        } else {
            "encoding"
        };
        for (n, (rfc, ours)) in trace.lines.iter().zip(&ours).enumerate() {
            assert_eq!(
                ours,
                rfc,
                "{kind} trace of {}, line {}",
                trace.sample,
                n + 1
            );
        }
        assert_eq!(
            ours.len(),
            trace.lines.len(),
            "{kind} trace of {} length",
            trace.sample
        );
    }
}

/// After each delta the decoder's output must be what the C reference decodes
/// from the same prefix of the input, and the encoder's deltas must decode
/// back to the same code points.
#[test]
fn trace_states_agree_with_c_reference() {
    for id in ['B', 'L'] {
        let code_points = sample_code_points(id);
        let punycode = c_reference::encode(&code_points, None).unwrap();
        let literal = punycode
            .iter()
            .rposition(|&c| c == DELIMITER)
            .map_or(0, |p| p + 1);
        let (result, steps) = punycode::decode_traced(&punycode);
        assert_eq!(result.unwrap().code_points, code_points);
        let mut end = literal;
        for step in &steps {
            end += step.digits.len();
            let prefix = c_reference::decode(&punycode[..end]).unwrap();
            assert_eq!(prefix.code_points, step.output, "sample {id}, prefix {end}");
        }
        assert_eq!(end, punycode.len());
        let (encoded, encode_steps) = punycode::encode_traced(&code_points, None);
        assert_eq!(encoded.unwrap(), punycode);
        let deltas: Vec<u32> = steps.iter().map(|s| s.delta).collect();
        let encode_deltas: Vec<u32> = encode_steps.iter().map(|s| s.delta).collect();
        assert_eq!(deltas, encode_deltas, "sample {id}");
    }
}
